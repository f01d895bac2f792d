"""Seconds per training step of a zoo model (notebook 09's first training) at several torch thread counts.

    python benchmarks/bench_zoo_threads.py                       # the transformer of 09, full sizes, 1 and 2 threads
    python benchmarks/bench_zoo_threads.py --threads 1 2 4 --steps 30 --family rnn

Why: notebook 09's first full run was once seen at 2.7 s per step (400 steps) on the 2-core course machine
while other jobs ran. PyTorch's default is one intra-op thread per core; when the cores are busy with other
processes, the threads of one matrix product wait for each other. This script times the same steps of the same
recipe (utils.zoo.zoo_recipe, the batches of utils.batching) with each thread count, in alternating rounds, and
prints the machine's load beside them. It prints one JSON line last; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import torch

from utils.batching import batch_sampler
from utils.dataset import load_dataset
from utils.training import TrainConfig, make_optimizer
from utils.zoo import FAMILIES, build_model, zoo_recipe


def time_steps(family: str, fast: bool, steps: int, threads: int, corpus: str) -> list[float]:
    """Seconds of each of `steps` training steps of the family's zoo recipe with `threads` intra-op threads."""
    torch.set_num_threads(threads)
    recipe = zoo_recipe(family, fast)
    dataset = load_dataset(corpus)
    torch.manual_seed(recipe.seed)
    model = build_model(recipe, dataset.vocab_size).train()
    optimizer = make_optimizer(model, TrainConfig(steps=recipe.steps, lr=recipe.lr))
    batches = batch_sampler(dataset.train, recipe.batch_size, recipe.block_size, None,
                            torch.Generator().manual_seed(recipe.seed))
    seconds = []
    for _ in range(steps):
        start = time.perf_counter()
        x, y = batches()
        loss = model.loss(x, y)  # the same work as utils.training.train's step: forward, backward, clip, AdamW
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="transformer", choices=[f for f in FAMILIES if f != "ngram"])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--steps", type=int, default=20, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, the thread counts alternating")
    parser.add_argument("--fast", action="store_true", help="the fast recipe (LM_FAST=1) instead of the full one")
    parser.add_argument("--corpus", default="pydocs")
    args = parser.parse_args()
    recipe = zoo_recipe(args.family, args.fast)
    rows = {t: [] for t in args.threads}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for threads in args.threads:
            rows[threads] += time_steps(args.family, args.fast, args.steps, threads, args.corpus)[1:]  # first: warm-up
            loads.append(os.getloadavg()[0])
    result = {"benchmark": "zoo_threads", "family": args.family, "mode": "fast" if args.fast else "full",
              "recipe_steps": recipe.steps, "cpu_count": os.cpu_count(), "load_average_1min": [round(l, 2) for l in loads],
              "seconds_per_step": {}}
    for threads, seconds in rows.items():
        median = statistics.median(seconds)
        result["seconds_per_step"][str(threads)] = {"median": round(median, 4), "max": round(max(seconds), 4),
                                                    "whole_training_s": round(median * recipe.steps, 1)}
        print(f"{threads} thread(s): median {median:.3f} s per step (max {max(seconds):.3f}), "
              f"{recipe.steps} steps = {median * recipe.steps:.0f} s", flush=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
