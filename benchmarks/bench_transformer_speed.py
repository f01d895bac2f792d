"""Time to quality of the utils Transformer against the reference recipes' whole runs, side by side.

    python benchmarks/bench_transformer_speed.py                      # both corpora, each against its reference
    python benchmarks/bench_transformer_speed.py --corpus shakespeare --repeat 3
    python benchmarks/bench_transformer_speed.py --corpus names --no-reference --steps 2000

Shakespeare: character level, first 90% of the text for training and the last 10% for
validation (nanoGPT's shakespeare_char split), our loss taken over the whole validation text in
consecutive windows of the context length. Names: makemore's split (the last 1000 names of a
permutation seeded 3407; --names-split course for the course's), our loss over the whole test
split. Targets: val <= 1.88 and test <= 1.97, each in <= 0.5x the reference's whole run.

The references run in the same invocation, same process, same threads: the frozen workloads of
benchmarks/reference_workload.py, faithful re-implementations of nanoGPT's CPU recipe for
shakespeare_char (the speed unit U is derived from it) and of makemore's default transformer
run (10000 steps); that file's docstring says what they do and what differs from the original
scripts. The ratio is our time to the loss (data, model, training and the final evaluation)
over the reference's whole run (data, model, training and its periodic evaluations), each plus
this process's start-up (interpreter and imports, measured once), i.e. the wall time each would
take as a process of its own. --repeat N alternates the order (ours first, then the reference
first, ...) and reports the median ratio. The reference's loss is its own estimate (nanoGPT: the
last eval, 20 batches; makemore: the best of its evals over the test set), plus, untimed, the
same full held-out measure as ours for nanoGPT.

Measured on the course machine: see the README's "Measured". Prints one line per run, then,
last, ONE JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import typing
from dataclasses import asdict, fields
from pathlib import Path

import psutil
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_workload as reference  # noqa: E402  (the frozen workload, next to this script)

from utils.batching import batch_sampler  # noqa: E402
from utils.data import MIRROR_ENV_VAR, load_items, load_text  # noqa: E402
from utils.dataset import ITEM_BOUNDARY, Dataset, load_dataset  # noqa: E402
from utils.device import get_device, set_seed  # noqa: E402
from utils.evaluation import evaluate, evaluate_split  # noqa: E402
from utils.recipes import transformer_recipe  # noqa: E402
from utils.tokenizers import CharTokenizer  # noqa: E402
from utils.training import TrainConfig, train  # noqa: E402
from utils.transformer import TransformerConfig, TransformerLM  # noqa: E402

TARGETS = {"shakespeare": {"loss": 1.88, "ratio": 0.5}, "names": {"loss": 1.97, "ratio": 0.5}}


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


def parse_value(text: str) -> int | float | bool | str | None:
    """A --model-option value: int, float, true/false, none, or else the string itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_model_options(options: list[str]) -> dict:
    """KEY=VALUE strings (repeatable --model-option) as TransformerConfig overrides; ValueError naming the valid fields."""
    hints = typing.get_type_hints(TransformerConfig)
    valid = [f.name for f in fields(TransformerConfig) if f.name != "vocab_size"]  # the corpus sets the vocabulary
    parsed: dict = {}
    for option in options:
        key, sep, raw = option.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--model-option wants KEY=VALUE, got {option!r}")
        if key not in valid:
            raise ValueError(f"--model-option {key!r} is not a TransformerConfig field: choose one of {', '.join(valid)}")
        if key in parsed:
            raise ValueError(f"--model-option {key!r} given twice")
        value = parse_value(raw)
        allowed = typing.get_args(hints[key]) or (hints[key],)  # e.g. (int, NoneType) for `int | None`
        allowed = tuple(float if t is float else t for t in allowed) + ((int,) if float in allowed else ())
        if isinstance(value, bool) and bool not in allowed or not isinstance(value, allowed):
            names = ", ".join("none" if t is type(None) else t.__name__ for t in dict.fromkeys(allowed))
            raise ValueError(f"--model-option {key}={raw!r}: {key} takes {names}")
        parsed[key] = float(value) if float in allowed and isinstance(value, int) else value
    return parsed


def run_ours(corpus: str, args: argparse.Namespace) -> dict:
    """Train the course recipe's model on `corpus` and measure its held-out loss; every phase timed."""
    start, cpu_start = time.perf_counter(), time.process_time()
    device = get_device(args.device)
    recipe = transformer_recipe(corpus, fast=False, lean=args.lean, device=device.type)  # CUDA: the GPU recipe
    overrides = {k: v for k, v in (("steps", args.steps), ("lr", args.lr), ("warmup_steps", args.warmup),
                                   ("min_lr_ratio", args.min_lr_ratio),
                                   ("betas", None if args.beta2 is None else (0.9, args.beta2))) if v is not None}
    model_overrides = {k: v for k, v in (("positional", args.positional), ("context_length", args.context),
                                         ("tie_weights", args.tie)) if v is not None}
    model_overrides.update(parse_model_options(args.model_option))  # main checked them (and that no flag clashes)
    batch_size = args.batch_size or recipe.batch_size
    train_config = recipe.train_config(progress=False, fused_optimizer=args.fused, cpu_bf16=args.bf16, **overrides)
    set_seed(args.seed)
    generator = torch.Generator().manual_seed(args.seed)
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
    setup_seconds = time.perf_counter() - start
    history = train(model, sampler, train_config, val_batches=val_sampler if args.curve else None)
    start = time.perf_counter()
    metrics = held_out(model)
    eval_seconds = time.perf_counter() - start
    result = {
        "side": "ours",
        "cpu_s": round(time.process_time() - cpu_start, 3),
        "split": split,
        "loss": round(metrics.nll, 4),
        "seconds": round(setup_seconds + history.seconds + eval_seconds, 3),
        "setup_s": round(setup_seconds, 3),
        "train_s": round(history.seconds, 3),
        "eval_s": round(eval_seconds, 3),
        "tokens_per_s": round(history.tokens_seen / history.seconds),
        "steps": len(history.steps),
        "batch_size": batch_size,
        "params": model.num_parameters(),
        "model": asdict(model_config),
        "train": {k: v for k, v in asdict(train_config).items() if k in TrainConfig.__dataclass_fields__ and k not in ("progress", "time_budget_s")},
        "curve": [[s, round(v, 3)] for s, v in zip(history.val_steps, history.val_loss)],
    }
    print(f"{corpus} ours: {split} loss {metrics.nll:.4f} after {result['steps']} steps; {result['seconds']:.1f} s "
          f"(setup {setup_seconds:.1f}, train {history.seconds:.1f}, eval {eval_seconds:.1f}; {result['tokens_per_s']} tokens/s)", flush=True)
    return result


def run_reference(corpus: str, args: argparse.Namespace) -> dict:
    """The frozen reference workload's whole run on `corpus` (nanoGPT's recipe or makemore's), scaled by --reference-scale."""
    scale = args.reference_scale
    wall_start, cpu_start = time.perf_counter(), time.process_time()  # the corpus read is part of the whole run
    if corpus == "shakespeare":
        text = load_text("shakespeare")
        steps = max(1, round(2000 * scale))
        ran = reference.nanogpt_char_run(text, max_iters=steps, eval_interval=max(1, round(250 * scale)), eval_iters=20 if scale == 1 else 2)
        wall_seconds, cpu_seconds = time.perf_counter() - wall_start, time.process_time() - cpu_start
        full = reference.nanogpt_full_val_loss(ran.model, text)  # untimed: the same measure as ours
        own = "last eval (20 random batches of val)"
    else:
        text = load_text("names")
        steps = max(1, round(10_000 * scale))
        ran = reference.makemore_transformer_run(text, max_steps=steps, eval_every=max(1, round(500 * scale)),
                                                  sample_every=max(1, round(200 * scale)))
        wall_seconds, cpu_seconds = time.perf_counter() - wall_start, time.process_time() - cpu_start
        full, own = None, "best eval (whole test split)"
    loss = ran.final_loss if corpus == "shakespeare" else ran.best_loss
    result = {
        "side": "reference",
        "recipe": ran.recipe,
        "loss": round(loss, 4),
        "loss_kind": own,
        "full_split_loss": None if full is None else round(full, 4),
        "seconds": round(wall_seconds, 3),
        "workload_s": round(ran.seconds, 3),
        "cpu_s": round(cpu_seconds, 3),
        "steps": ran.steps,
        "evals": [[s, round(v, 4)] for s, v in zip(ran.eval_steps, ran.eval_loss)],
        "full_size": scale == 1,
    }
    print(f"{corpus} reference ({ran.recipe}): loss {loss:.4f} ({own})"
          f"{'' if full is None else f', whole val {full:.4f}'} after {ran.steps} steps; {wall_seconds:.1f} s", flush=True)
    return result


def startup_seconds() -> float:
    """Seconds from this process's creation to now: the interpreter's start and the imports."""
    return time.time() - psutil.Process().create_time()


def compare(corpus: str, args: argparse.Namespace, startup_s: float, startup_cpu_s: float) -> dict:
    """Our run and the reference's, --repeat times with alternating order; ratios and their median."""
    pairs = []
    for index in range(args.repeat):
        order = ("ours", "reference") if index % 2 == 0 else ("reference", "ours")
        done = {}
        for side in order if not args.no_reference else ("ours",):
            done[side] = run_ours(corpus, args) if side == "ours" else run_reference(corpus, args)
        if "reference" in done:
            ours_s, reference_s = done["ours"]["seconds"] + startup_s, done["reference"]["seconds"] + startup_s
            done["ratio"] = round(ours_s / reference_s, 4)
            # CPU seconds: the same ratio, less at the mercy of other jobs on a shared machine (with one thread)
            done["cpu_ratio"] = round((done["ours"]["cpu_s"] + startup_cpu_s) / (done["reference"]["cpu_s"] + startup_cpu_s), 4)
            print(f"{corpus} run {index + 1}: ours {ours_s:.1f} s / reference {reference_s:.1f} s = {done['ratio']:.3f} "
                  f"(CPU seconds: {done['cpu_ratio']:.3f})", flush=True)
        pairs.append(done)
    ours = [p["ours"] for p in pairs]
    summary = {
        "corpus": corpus,
        "our_loss": statistics.median(o["loss"] for o in ours),
        "our_s": round(statistics.median(o["seconds"] for o in ours) + startup_s, 3),
        "target_loss": TARGETS[corpus]["loss"],
        "target_ratio": TARGETS[corpus]["ratio"],
        "runs": pairs,
    }
    if not args.no_reference:
        references = [p["reference"] for p in pairs]
        ratios = [p["ratio"] for p in pairs]
        summary.update({
            "reference_loss": statistics.median(r["loss"] for r in references),
            "reference_s": round(statistics.median(r["seconds"] for r in references) + startup_s, 3),
            "ratio": statistics.median(ratios),
            "ratios": ratios,
            "cpu_ratio": statistics.median(p["cpu_ratio"] for p in pairs),
            "meets_target": bool(summary["our_loss"] <= TARGETS[corpus]["loss"] and statistics.median(ratios) <= TARGETS[corpus]["ratio"]),
            # the same verdict on CPU seconds: what to read when other jobs swamp the wall clock
            "meets_target_cpu": bool(summary["our_loss"] <= TARGETS[corpus]["loss"]
                                     and statistics.median(p["cpu_ratio"] for p in pairs) <= TARGETS[corpus]["ratio"]),
        })
        if corpus == "shakespeare":
            summary["reference_full_val_loss"] = statistics.median(r["full_split_loss"] for r in references)
    return summary


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["shakespeare", "names", "both"], default="both")
    parser.add_argument("--repeat", type=int, default=1, help="run each side this many times (alternating order); median ratio")
    parser.add_argument("--no-reference", action="store_true", help="only our run (no ratio; U only from --unit-seconds)")
    parser.add_argument("--reference-scale", type=float, default=1.0,
                        help="shrink the reference runs' steps and eval intervals (smoke tests only; 1 = faithful)")
    parser.add_argument("--unit-seconds", type=float, default=None,
                        help="U measured elsewhere (seconds); by default U comes from this run's nanoGPT reference")
    parser.add_argument("--steps", type=int, default=None, help="override our recipe's step count")
    parser.add_argument("--lr", type=float, default=None, help="override our recipe's peak learning rate")
    parser.add_argument("--warmup", type=int, default=None, help="override our recipe's warm-up steps")
    parser.add_argument("--min-lr-ratio", type=float, default=None, help="override our recipe's final lr share (cosine)")
    parser.add_argument("--beta2", type=float, default=None, help="override our AdamW beta2 (recipe: 0.99)")
    parser.add_argument("--batch-size", type=int, default=None, help="override our recipe's batch size")
    parser.add_argument("--positional", default=None, help="override our recipe's positional encoding")
    parser.add_argument("--context", type=int, default=None, help="override our recipe's context length")
    parser.add_argument("--tie", action="store_const", const=True, default=None, help="tie the embedding and output weights")
    parser.add_argument("--model-option", action="append", default=[], metavar="KEY=VALUE",
                        help="override a TransformerConfig field of our model (repeatable), e.g. d_ff=256, n_kv_head=1")
    parser.add_argument("--lean", action="store_true",
                        help="the corpus's lean recipe (utils/recipes.py: 3 layers, d_ff 2x, one key/value head; "
                             "names also at lr 6e-3 decaying to 0)")
    parser.add_argument("--fused", action="store_true", help="our AdamW's fused step (TrainConfig.fused_optimizer; opt-in)")
    parser.add_argument("--bf16", action="store_true", help="our run in bf16 autocast on the CPU (TrainConfig.cpu_bf16; opt-in)")
    parser.add_argument("--names-split", choices=["makemore", "course"], default="makemore",
                        help="names: makemore's split (the reference's; default) or the course's 80/10/10")
    parser.add_argument("--threads", type=int, default=None, help="torch.set_num_threads (default: torch's choice)")
    parser.add_argument("--device", default="cpu", help="cpu (the targets' machine), cuda or mps")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--curve", type=int, default=0, help="also estimate the validation loss every this many steps")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.reference_scale <= 0:
        parser.error("--repeat must be >= 1 and --reference-scale > 0")
    try:
        model_options = parse_model_options(args.model_option)
    except ValueError as error:
        parser.error(str(error))
    flagged = {"positional": args.positional, "context_length": args.context, "tie_weights": args.tie}
    if clash := sorted(k for k in model_options if flagged.get(k) is not None):
        parser.error(f"{', '.join(clash)} set twice: by --model-option and by its own flag")
    os.environ.setdefault(MIRROR_ENV_VAR, str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    if args.threads:
        torch.set_num_threads(args.threads)
    startup_s, startup_cpu_s = startup_seconds(), time.process_time()
    load_before = os.getloadavg()[0]
    corpora = ["shakespeare", "names"] if args.corpus == "both" else [args.corpus]
    results = {corpus: compare(corpus, args, startup_s, startup_cpu_s) for corpus in corpora}
    unit, unit_source = args.unit_seconds, "--unit-seconds"
    if unit is None and "reference_s" in results.get("shakespeare", {}):
        unit = reference.speed_unit(statistics.median(p["reference"]["workload_s"] for p in results["shakespeare"]["runs"]))
        unit_source = "this run's nanoGPT reference" + ("" if args.reference_scale == 1 else " (SHRUNK: not a real U)")
    for summary in results.values():
        summary["our_u"] = None if unit is None else round(summary["our_s"] / unit, 4)
        if "reference_s" in summary:
            summary["reference_u"] = None if unit is None else round(summary["reference_s"] / unit, 4)
    for corpus, summary in results.items():
        if "ratio" in summary:
            verdict = "MET" if summary["meets_target"] else "NOT MET"
            print(f"{corpus}: loss {summary['our_loss']} in {summary['our_s']:.1f} s vs the reference's {summary['reference_s']:.1f} s: "
                  f"ratio {summary['ratio']:.3f} (median of {len(summary['ratios'])}) - target loss <= {summary['target_loss']} "
                  f"at ratio <= {summary['target_ratio']}: {verdict} (CPU-second ratio {summary['cpu_ratio']:.3f}: "
                  f"{'MET' if summary['meets_target_cpu'] else 'NOT MET'})")
    line = {
        "benchmark": "transformer_speed",
        "our_s": {c: s["our_s"] for c, s in results.items()},
        "reference_s": {c: s.get("reference_s") for c, s in results.items()},
        "ratio": {c: s.get("ratio") for c, s in results.items()},
        "cpu_ratio": {c: s.get("cpu_ratio") for c, s in results.items()},
        "our_loss": {c: s["our_loss"] for c, s in results.items()},
        "reference_loss": {c: s.get("reference_loss") for c, s in results.items()},
        "meets_target": {c: s.get("meets_target") for c, s in results.items()},
        "meets_target_cpu": {c: s.get("meets_target_cpu") for c, s in results.items()},
        "threads": torch.get_num_threads(),
        "our_switches": {"fused_optimizer": args.fused, "cpu_bf16": args.bf16, "lean": args.lean, "model_options": model_options},
        "torch": torch.__version__,
        "unit_s": None if unit is None else round(unit, 3),
        "unit_source": unit_source if unit is not None else None,
        "calibration": reference.NANOGPT_CALIBRATION,
        "startup_s": round(startup_s, 3),
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "corpora": results,
    }
    print(json.dumps(line))
    return line


if __name__ == "__main__":
    main()
