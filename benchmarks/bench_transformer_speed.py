"""Time to quality of the utils Transformer: Tiny Shakespeare (90/10) and names.txt (course split).

    python benchmarks/bench_transformer_speed.py                 # both runs, the default recipes
    python benchmarks/bench_transformer_speed.py --corpus shakespeare --steps 800 --lr 3e-3

Shakespeare: character level, first 90% of the text for training and the last 10% for
validation (the split of nanoGPT's shakespeare_char, not the course's 80/10/10), the
validation loss taken over the whole validation text in consecutive windows of the
context length. Names: the course's split (utils.dataset), the loss over the whole test
split. Reference on the course machine (2 cores): nanoGPT's CPU recipe reaches 1.886 in
101 s; makemore's default transformer reaches 1.971 in 248 s. Targets: <= 1.88 in <= 50 s,
<= 1.97 in <= 124 s. Training time (wall_s) excludes the final evaluation (eval_s).
--reference also trains our model with the references' hyper-parameters (nanoGPT's CPU
recipe; makemore's) in the same run, and reports time_ratio_to_reference: on a busy
machine that ratio means more than the absolute seconds.

Prints one line per run, then, last, ONE JSON object with every run.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict
from pathlib import Path

import torch

from utils.batching import batch_sampler
from utils.data import MIRROR_ENV_VAR, load_items, load_text
from utils.dataset import ITEM_BOUNDARY, Dataset, load_dataset
from utils.device import get_device, set_seed
from utils.evaluation import evaluate, evaluate_split
from utils.recipes import Recipe, transformer_recipe
from utils.tokenizers import CharTokenizer
from utils.training import TrainConfig, train
from utils.transformer import TransformerLM

# the published references' hyper-parameters, on our model of the same class (--reference runs them side by side)
REFERENCES = {
    "shakespeare": Recipe(  # nanoGPT's CPU recipe for shakespeare_char
        dict(context_length=64, n_layer=4, n_head=4, d_model=128, dropout=0.0, positional="learned"),
        TrainConfig(steps=2000, lr=1e-3, warmup_steps=100, min_lr_ratio=0.1, weight_decay=0.1, betas=(0.9, 0.99)),
        batch_size=12,
    ),
    "names": Recipe(  # makemore's default transformer: constant lr, no clipping
        dict(context_length=16, n_layer=4, n_head=4, d_model=64, dropout=0.0, positional="learned"),
        TrainConfig(steps=10_000, lr=5e-4, schedule="constant", weight_decay=0.01, betas=(0.9, 0.99), grad_clip=None),
        batch_size=32,
    ),
}
TARGETS = {"shakespeare": {"loss": 1.88, "seconds": 50.0}, "names": {"loss": 1.97, "seconds": 124.0}}


def shakespeare_90_10() -> tuple[torch.Tensor, torch.Tensor, int]:
    """Tiny Shakespeare as character ids: first 90% train, last 10% validation, and the vocabulary size."""
    text = load_text("shakespeare")
    tokenizer = CharTokenizer.from_text(text)
    ids = torch.tensor(tokenizer.encode(text), dtype=torch.long)  # (N,)
    cut = int(0.9 * ids.numel())
    return ids[:cut], ids[cut:], tokenizer.vocab_size


def names_makemore_split(seed: int = 3407) -> Dataset:
    """names.txt split as makemore splits it: torch seeded, a random permutation, the last 1000 names for test."""
    words = load_items("names")  # stripped, blank lines dropped, as makemore does
    # makemore seeds torch's global generator (default seed 3407) and then permutes; a fresh generator
    # with that seed gives the same permutation without touching the global state
    order = torch.randperm(len(words), generator=torch.Generator().manual_seed(seed)).tolist()
    test_size = min(1000, int(len(words) * 0.1))
    train_words = [words[i] for i in order[:-test_size]]
    test_words = [words[i] for i in order[-test_size:]]
    tokenizer = CharTokenizer.from_text("".join(words), boundary=ITEM_BOUNDARY)
    encode = lambda part: [torch.tensor(tokenizer.encode(w), dtype=torch.long) for w in part]  # noqa: E731
    # makemore has no validation part; the rough curve (--curve) reads a slice of the training names
    return Dataset("names", "items", tokenizer, encode(train_words), encode(train_words[:1000]), encode(test_words))


def run(corpus: str, args: argparse.Namespace, reference: bool = False) -> dict:
    """Train the course recipe's model (or the reference recipe's) on `corpus`, measure its held-out loss."""
    if reference:
        recipe, overrides, model_overrides = REFERENCES[corpus], {"steps": args.steps} if args.steps else {}, {}
        batch_size = recipe.batch_size
    else:
        recipe = transformer_recipe(corpus, fast=False)
        overrides = {k: v for k, v in (("steps", args.steps), ("lr", args.lr), ("warmup_steps", args.warmup)) if v is not None}
        model_overrides = {"positional": args.positional} if args.positional else {}
        batch_size = args.batch_size or recipe.batch_size
    train_config = recipe.train_config(progress=False, **overrides)
    set_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    device = get_device(args.device)
    if corpus == "shakespeare":
        train_ids, val_ids, vocab_size = shakespeare_90_10()
        model_config = recipe.model_config(vocab_size, **model_overrides)
        sampler = batch_sampler(train_ids, batch_size, model_config.context_length, generator=generator)
        held_out = lambda model: evaluate(model, val_ids, block_size=model_config.context_length, batch_size=256)  # noqa: E731
        val_sampler = batch_sampler(val_ids, 128, model_config.context_length, generator=torch.Generator().manual_seed(0))
        split = "val (last 10%)"
    else:
        dataset = names_makemore_split() if args.names_split == "makemore" else load_dataset("names")
        model_config = recipe.model_config(dataset.vocab_size, **model_overrides)
        longest = max(item.numel() for part in (dataset.train, dataset.val, dataset.test) for item in part) + 1
        if longest > model_config.context_length:
            raise ValueError(f"names need a context of {longest}, the recipe has {model_config.context_length}")
        sampler = batch_sampler(dataset.train, batch_size, boundary_id=dataset.tokenizer.boundary_id, generator=generator)
        held_out = lambda model: evaluate_split(model, dataset, "test", batch_size=1024)  # noqa: E731
        val_sampler = batch_sampler(dataset.val, 512, boundary_id=dataset.tokenizer.boundary_id, generator=torch.Generator().manual_seed(0))
        split = "test (makemore split, 1000 names)" if args.names_split == "makemore" else "test (course split)"
    model = TransformerLM(model_config).to(device)
    if args.curve:  # a rough validation curve (4 random batches every `curve` steps); it costs time
        train_config = recipe.train_config(**{**asdict(train_config), "eval_every": args.curve, "eval_batches": 4})
    history = train(model, sampler, train_config, val_batches=val_sampler if args.curve else None)
    start = time.perf_counter()
    metrics = held_out(model)
    eval_seconds = time.perf_counter() - start
    target = TARGETS[corpus]
    result = {
        "corpus": corpus,
        "recipe": "reference" if reference else "course",
        "split": split,
        "loss": round(metrics.nll, 4),
        "wall_s": round(history.seconds, 3),
        "eval_s": round(eval_seconds, 1),
        "tokens_per_s": round(history.tokens_seen / history.seconds),
        "steps": len(history.steps),
        "batch_size": batch_size,
        "final_train_loss": round(sum(history.train_loss[-50:]) / len(history.train_loss[-50:]), 4),
        "params": model.num_parameters(),
        "model": {k: v for k, v in asdict(model_config).items()},
        "train": {k: v for k, v in asdict(train_config).items() if k in ("lr", "warmup_steps", "schedule", "min_lr_ratio", "grad_clip", "weight_decay", "betas")},
        "target_loss": target["loss"],
        "target_s": target["seconds"],
        "curve": [[s, round(v, 3)] for s, v in zip(history.val_steps, history.val_loss)],
        "meets_target": bool(metrics.nll <= target["loss"] and history.seconds <= target["seconds"]),
    }
    print(f"{corpus} ({result['recipe']} recipe): {split} loss {metrics.nll:.4f} after {result['steps']} steps in {history.seconds:.1f} s "
          f"({result['tokens_per_s']} tokens/s; eval {eval_seconds:.1f} s) target <= {target['loss']} in <= {target['seconds']} s")
    return result


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["shakespeare", "names", "both"], default="both")
    parser.add_argument("--steps", type=int, default=None, help="override the step count (of the reference recipe too)")
    parser.add_argument("--lr", type=float, default=None, help="override the recipe's peak learning rate")
    parser.add_argument("--warmup", type=int, default=None, help="override the recipe's warm-up steps")
    parser.add_argument("--batch-size", type=int, default=None, help="override the recipe's batch size")
    parser.add_argument("--positional", default=None, help="override the recipe's positional encoding")
    parser.add_argument("--names-split", choices=["makemore", "course"], default="makemore",
                        help="names: makemore's split (the reference's; default) or the course's 80/10/10")
    parser.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's choice)")
    parser.add_argument("--device", default="cpu", help="cpu (the targets' machine), cuda or mps")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--reference", action="store_true", help="also run the reference recipe (nanoGPT / makemore settings)")
    parser.add_argument("--curve", type=int, default=0, help="also estimate the validation loss every this many steps")
    args = parser.parse_args(argv)
    os.environ.setdefault(MIRROR_ENV_VAR, str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    if args.threads:
        torch.set_num_threads(args.threads)
    corpora = ["shakespeare", "names"] if args.corpus == "both" else [args.corpus]
    results = []
    for corpus in corpora:
        results.append(run(corpus, args))
        if args.reference:  # same machine, same minute: the time ratio is what to compare
            results.append(run(corpus, args, reference=True))
            reference_s = results[-1]["wall_s"]
            results[-2]["time_ratio_to_reference"] = round(results[-2]["wall_s"] / reference_s, 3) if reference_s > 0 else None
    summary = {"benchmark": "transformer_speed", "threads": torch.get_num_threads(), "torch": torch.__version__, "runs": results}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
