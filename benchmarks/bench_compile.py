"""Does torch.compile pay back inside a run? Compile time and steady step time, eager against compiled.

    python benchmarks/bench_compile.py                  # the running-text recipe, 30 timed steps per side
    python benchmarks/bench_compile.py --steps 5        # a quick smoke run

Both sides train the same recipe model (utils.recipes, running text, 65 symbols as Tiny
Shakespeare has) on the same fixed random batch with the course's AdamW. The compiled side calls
`model.compile()` (TorchInductor; it needs a C++ compiler on the CPU) and its first two steps are
timed apart: that is the compile cost (forward and backward graphs). Then each side runs
`--steps` steps in blocks of 10, alternating eager and compiled blocks so that a change of machine
load hits both; step times are CPU seconds of this process (compile workers are other processes,
so the compile cost is given in wall seconds). Payback: the number of steps after which the
compiled run would have caught up with eager, `compile_s / (eager_ms - compiled_ms) * 1000`
(none if the compiled step is not faster). The recipe trains 900 steps.

Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import torch
import torch.nn.functional as F

from utils.recipes import transformer_recipe
from utils.training import make_optimizer
from utils.transformer import TransformerLM

VOCAB_SIZE = 65  # Tiny Shakespeare's characters


def make_run(seed: int, batch_size: int, compiled: bool):
    """A model, its AdamW and one training step on a fixed random batch (compiled with model.compile() if asked)."""
    recipe = transformer_recipe("shakespeare", fast=False)
    config = recipe.model_config(VOCAB_SIZE)
    torch.manual_seed(seed)
    model = TransformerLM(config)
    optimizer = make_optimizer(model, recipe.train_config())
    if compiled:
        model.compile()
    inputs = torch.randint(0, VOCAB_SIZE, (batch_size, config.context_length))  # (B, T)
    targets = torch.randint(0, VOCAB_SIZE, (batch_size, config.context_length))  # (B, T)

    def step() -> None:
        logits = model(inputs)  # (B, T, V)
        loss = F.cross_entropy(logits.view(-1, VOCAB_SIZE), targets.view(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    return step


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30, help="timed steps per side (blocks of 10)")
    parser.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (default 1, as the tests)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    batch_size = transformer_recipe("shakespeare", fast=False).batch_size
    eager, compiled = make_run(args.seed, batch_size, False), make_run(args.seed, batch_size, True)
    eager()  # warm-up
    start = time.perf_counter()
    compiled()
    compiled()
    compile_s = time.perf_counter() - start
    print(f"compile (first two compiled steps): {compile_s:.1f} s wall", flush=True)
    block = min(10, args.steps)
    times: dict[str, list[float]] = {"eager": [], "compiled": []}
    for _ in range(max(1, args.steps // block)):
        for name, step in (("eager", eager), ("compiled", compiled)):
            start = time.process_time()
            for _ in range(block):
                step()
            times[name].append((time.process_time() - start) / block * 1000)
    eager_ms, compiled_ms = statistics.median(times["eager"]), statistics.median(times["compiled"])
    gain = eager_ms - compiled_ms
    payback = compile_s / gain * 1000 if gain > 0 else None
    for name in times:
        print(f"{name:9s} ms per step (CPU): median {statistics.median(times[name]):.1f}, blocks {times[name]}")
    print("payback: " + (f"after {payback:.0f} steps" if payback else "never (the compiled step is not faster)"))
    result = {"benchmark": "compile", "compile_seconds": round(compile_s, 2), "eager_ms_per_step": round(eager_ms, 2),
              "compiled_ms_per_step": round(compiled_ms, 2), "payback_steps": None if payback is None else round(payback),
              "batch_size": batch_size, "threads": args.threads, "torch": torch.__version__}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
