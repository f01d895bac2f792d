"""Test loss of the fixed-window MLP and the RNNs (plain, GRU) on names.txt, on the course split.

Reference points from published lectures (makemore): count bigram NLL ~2.48 on the whole
set, MLP with 3 characters of context ~2.17 on the dev split. Each model here is trained
with the shared loop (utils.training.train) on framed names ('.emma.') and scored on the
whole validation and test splits with utils.evaluation.evaluate_split, so its numbers are
comparable with every other family's. A count bigram (add-one) and a Kneser-Ney trigram
(utils.ngram) are scored on the same split for reference.

Usage: python benchmarks/bench_names.py [--steps-scale 1.0] [--max-eval-batches N]
Needs names.txt: from $LM_DATA_MIRROR, the cache, or a download. Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from utils.batching import batch_sampler
from utils.dataset import load_dataset
from utils.device import get_device, set_seed
from utils.evaluation import evaluate_split
from utils.interface import LanguageModel
from utils.rnn import RNNConfig, RNNLM
from utils.training import TrainConfig, train
from utils.window_mlp import WindowMLPConfig, WindowMLPLM

SEED = 1337
BATCH_SIZE = 64


def families(vocab_size: int, boundary_id: int) -> dict[str, tuple[LanguageModel, TrainConfig]]:
    """The models and their training settings (full size)."""
    return {
        "window_mlp_n3": (
            WindowMLPLM(WindowMLPConfig(vocab_size, window=3, d_embed=16, d_hidden=256, pad_id=boundary_id)),
            TrainConfig(steps=8000, lr=1e-2, warmup_steps=100, weight_decay=0.01, eval_every=1000),
        ),
        "rnn_tanh": (
            RNNLM(RNNConfig(vocab_size, d_embed=24, d_hidden=128, cell="tanh")),
            TrainConfig(steps=5000, lr=5e-3, warmup_steps=100, weight_decay=0.01, eval_every=1000),
        ),
        "rnn_gru": (
            RNNLM(RNNConfig(vocab_size, d_embed=24, d_hidden=128, cell="gru")),
            TrainConfig(steps=5000, lr=5e-3, warmup_steps=100, weight_decay=0.01, eval_every=1000),
        ),
    }


def ngram_references(dataset, max_batches: int | None) -> dict[str, dict[str, float]]:
    """Count bigram (add-one, as in the lecture) and trigram (Kneser-Ney) from utils.ngram, when it is there."""
    try:
        from utils.ngram import NGramLM
    except ImportError:
        return {}
    results = {}
    for name, order, smoothing in (("count_bigram_add1", 2, "add_k"), ("count_trigram_kn", 3, "kneser_ney")):
        start = time.perf_counter()
        model = NGramLM.fit(dataset.train, dataset.vocab_size, n=order, smoothing=smoothing,
                            boundary_id=dataset.tokenizer.boundary_id)
        results[name] = {
            "val_nll": round(evaluate_split(model, dataset, "val", max_batches=max_batches).nll, 4),
            "test_nll": round(evaluate_split(model, dataset, "test", max_batches=max_batches).nll, 4),
            "seconds": round(time.perf_counter() - start, 1),
        }
    return results


def main(argv: list[str] | None = None) -> dict:
    """Train and score every family; print one line per model and the JSON summary last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps-scale", type=float, default=1.0, help="multiply every step count (smoke tests: small)")
    parser.add_argument("--max-eval-batches", type=int, default=None, help="score only this many batches per split")
    parser.add_argument("--only", default=None, help="comma-separated family names to run")
    args = parser.parse_args(argv)
    dataset = load_dataset("names")
    device = get_device()
    boundary = dataset.tokenizer.boundary_id
    summary: dict = {"corpus": "names", "device": str(device), "split": "course 80/10/10, shuffled with seed 1234",
                     "reference": {"count_bigram_nll": 2.48, "mlp_context3_dev": 2.17}, "models": {}}
    try:
        summary["models"].update(ngram_references(dataset, args.max_eval_batches))
    except Exception as error:  # the n-gram module's API is another family's; never block the others
        summary["ngram_error"] = repr(error)
    wanted = None if args.only is None else set(args.only.split(","))
    for name, (model, config) in families(dataset.vocab_size, boundary).items():
        if wanted is not None and name not in wanted:
            continue
        generator = set_seed(SEED)
        model.to(device)
        config.steps = max(1, int(config.steps * args.steps_scale))
        config.progress = False
        batches = batch_sampler(dataset.train, BATCH_SIZE, boundary_id=boundary, generator=generator)
        val_batches = batch_sampler(dataset.val, BATCH_SIZE, boundary_id=boundary, generator=generator)
        history = train(model, batches, config, val_batches)
        val = evaluate_split(model, dataset, "val", max_batches=args.max_eval_batches)
        test = evaluate_split(model, dataset, "test", max_batches=args.max_eval_batches)
        summary["models"][name] = {
            "val_nll": round(val.nll, 4), "test_nll": round(test.nll, 4), "test_perplexity": round(test.perplexity, 3),
            "parameters": model.num_parameters(), "steps": len(history.steps), "train_seconds": round(history.seconds, 1),
        }
        print(f"{name:>14}: val {val.nll:.4f}  test {test.nll:.4f} nats/char  "
              f"({model.num_parameters()} parameters, {history.seconds:.1f} s)", flush=True)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
