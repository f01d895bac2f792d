"""Measuring what sequence length costs: training steps and per-token generation, and the log-log slope of a curve.

Per-token generation time at history length n: feed n tokens (not timed), then time a few
single-token step() calls. For a Transformer without a cache each step re-runs the whole
history (work grows with n, and its attention with n^2); with a KV cache a step computes one
position against n cached keys (grows with n, from a small base); an RNN step reads one token
and a fixed-size state (constant). The slope of log(time) against log(n) estimates the power.

On a shared machine other programs only ever add time, so the robust versions below
(`per_token_times`, `training_step_times`) count this process's CPU seconds (`time.process_time`:
time spent waiting for a busy CPU does not count, wall time would), take the fastest of several
repeats (as Python's `timeit` documentation advises) and measure the lengths round-robin, so that
a burst of load hits every length alike; `theil_sen_slope` fits the power so that one bad point
barely moves it.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence

import torch

from utils.interface import LanguageModel


def loglog_slope(lengths: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) against log(length): time ~ length**slope."""
    if len(lengths) != len(seconds) or len(lengths) < 2:
        raise ValueError("need at least two (length, time) pairs of equal count")
    if min(lengths) <= 0 or min(seconds) <= 0:
        raise ValueError("lengths and times must be positive to take logarithms")
    xs, ys = [math.log(x) for x in lengths], [math.log(y) for y in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def theil_sen_slope(lengths: Sequence[float], seconds: Sequence[float]) -> float:
    """Median of the pairwise slopes of log(seconds) against log(length) (Theil-Sen): robust to one outlying point."""
    loglog_slope(lengths, seconds)  # the same checks on the input
    points = [(math.log(x), math.log(y)) for x, y in zip(lengths, seconds)]
    slopes = [(y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(points) for x2, y2 in points[i + 1 :] if x2 != x1]
    if not slopes:
        raise ValueError("need at least two different lengths")
    return statistics.median(slopes)


def interleaved_fastest(measure: Callable[[int], float], lengths: Sequence[int], repeats: int = 5, warmup: int = 1) -> list[float]:
    """Fastest of `repeats` calls measure(n) for each length, taken round-robin over the lengths after `warmup` rounds."""
    if repeats < 1 or not lengths:
        raise ValueError(f"need repeats >= 1 and at least one length, got {repeats} and {list(lengths)}")
    best = [math.inf] * len(lengths)
    for round_ in range(warmup + repeats):
        for i, n in enumerate(lengths):
            seconds = measure(n)
            if round_ >= warmup:
                best[i] = min(best[i], seconds)
    return best


@torch.no_grad()
def _step_seconds(model: LanguageModel, history_length: int, n_steps: int, seed: int, clock=time.process_time) -> float:
    """Seconds (of `clock`) per step() call, n_steps calls after a state built from `history_length` random tokens (not timed)."""
    generator = torch.Generator().manual_seed(seed)
    history = torch.randint(0, model.vocab_size, (1, history_length), generator=generator).to(model.device)  # (1, n)
    _, state = model.step(history, model.start_state(1))
    token = history[:, -1:]  # (1, 1)
    start = clock()
    for _ in range(n_steps):
        _, state = model.step(token, state)
    return (clock() - start) / n_steps


def per_token_times(model: LanguageModel, lengths: Sequence[int], n_steps: int = 4, repeats: int = 5, seed: int = 0,
                    warmup: int = 1, clock=time.process_time) -> list[float]:
    """CPU seconds per generated token after each history length: the fastest of `repeats`, lengths round-robin."""
    model.eval()
    return interleaved_fastest(lambda n: _step_seconds(model, n, n_steps, seed, clock), lengths, repeats, warmup)


def training_step_times(model: LanguageModel, lengths: Sequence[int], batch_size: int = 8, repeats: int = 5, seed: int = 0,
                        warmup: int = 1, clock=time.process_time) -> list[float]:
    """CPU seconds of one forward + backward pass per length: the fastest of `repeats`, lengths round-robin."""
    batches = {n: torch.randint(0, model.vocab_size, (batch_size, n), generator=torch.Generator().manual_seed(seed)).to(model.device)
               for n in lengths}  # (B, n) each

    def one_pass(n: int) -> float:
        start = clock()
        model.loss(batches[n], batches[n]).backward()  # any targets: only the cost matters
        seconds = clock() - start
        model.zero_grad(set_to_none=True)
        return seconds

    model.train()
    try:
        return interleaved_fastest(one_pass, lengths, repeats, warmup)
    finally:
        model.eval()


@torch.no_grad()
def per_token_time(model: LanguageModel, history_length: int, n_steps: int = 4, repeats: int = 3, seed: int = 0,
                   warmup: int = 1) -> float:
    """Median seconds per step() call after a history of `history_length` random tokens (after `warmup` untimed runs)."""
    generator = torch.Generator().manual_seed(seed)
    history = torch.randint(0, model.vocab_size, (1, history_length), generator=generator).to(model.device)  # (1, n)
    token = history[:, -1:]  # (1, 1)
    model.eval()
    times = []
    for repeat in range(warmup + repeats):
        _, state = model.step(history, model.start_state(1))  # not timed: build the state
        start = time.perf_counter()
        for _ in range(n_steps):
            _, state = model.step(token, state)
        if repeat >= warmup:
            times.append((time.perf_counter() - start) / n_steps)
    return statistics.median(times)


@torch.no_grad()
def prefill_and_decode_times(model: LanguageModel, prompt_length: int, repeats: int = 5, seed: int = 0,
                             warmup: int = 1) -> tuple[float, float]:
    """Median seconds to (prefill a prompt of `prompt_length` tokens in one step() call, feed the same tokens one by one).

    Both build the same cache; the first runs all positions at once (parallel), the second one
    decode step per token (sequential), as generation must once the prompt is read.
    """
    generator = torch.Generator().manual_seed(seed)
    prompt = torch.randint(0, model.vocab_size, (1, prompt_length), generator=generator).to(model.device)  # (1, n)
    model.eval()
    prefill, decode = [], []
    for repeat in range(warmup + repeats):
        start = time.perf_counter()
        model.step(prompt, model.start_state(1))
        middle = time.perf_counter()
        state = model.start_state(1)
        for t in range(prompt_length):
            _, state = model.step(prompt[:, t : t + 1], state)
        end = time.perf_counter()
        if repeat >= warmup:
            prefill.append(middle - start)
            decode.append(end - middle)
    return statistics.median(prefill), statistics.median(decode)


def training_step_time(model: LanguageModel, length: int, batch_size: int = 8, repeats: int = 3, seed: int = 0,
                       warmup: int = 1) -> float:
    """Median seconds of one forward + backward pass on a (batch_size, length) batch (after `warmup` untimed passes)."""
    generator = torch.Generator().manual_seed(seed)
    x = torch.randint(0, model.vocab_size, (batch_size, length), generator=generator).to(model.device)  # (B, n)
    model.train()
    times = []
    for repeat in range(warmup + repeats):
        start = time.perf_counter()
        loss = model.loss(x, x)  # any targets: only the cost matters
        loss.backward()
        if repeat >= warmup:
            times.append(time.perf_counter() - start)
        model.zero_grad(set_to_none=True)
    model.eval()
    return statistics.median(times)


def cache_bytes_formula(n_layer: int, n_kv_heads: int, d_head: int, length: int, bytes_per_value: int = 4,
                        batch_size: int = 1) -> int:
    """KV-cache bytes: 2 (keys and values) x layers x KV heads x head size x positions x bytes per value x batch."""
    if min(n_layer, n_kv_heads, d_head, bytes_per_value, batch_size) < 1 or length < 0:
        raise ValueError("sizes must be >= 1 and the length >= 0")
    return 2 * n_layer * n_kv_heads * d_head * length * bytes_per_value * batch_size


def median_tokens_per_second(run, n_tokens: int, repeats: int = 5, warmup: int = 1, clock=time.perf_counter) -> float:
    """Median tokens/s of `repeats` timed calls of run() (each writes n_tokens), after `warmup` untimed calls."""
    if repeats < 1 or n_tokens < 1:
        raise ValueError(f"repeats and n_tokens must be >= 1, got {repeats} and {n_tokens}")
    for _ in range(warmup):
        run()
    speeds = []
    for _ in range(repeats):
        start = clock()
        run()
        speeds.append(n_tokens / max(clock() - start, 1e-12))
    return statistics.median(speeds)
