"""Timing helpers of notebook 10 and a smoke run of the KV-cache benchmark."""

import importlib.util
import math
from pathlib import Path

import pytest
import torch

from utils.generation_cost import cache_bytes_formula, loglog_slope, per_token_time, prefill_and_decode_times, training_step_time
from utils.rnn import RNNConfig, RNNLM
from utils.transformer import TransformerConfig, TransformerLM


def test_loglog_slope_recovers_powers():
    n = [16, 32, 64, 128]
    assert loglog_slope(n, [3 * x**2 for x in n]) == pytest.approx(2.0)
    assert loglog_slope(n, [5.0] * 4) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="positive"):
        loglog_slope([1, 2], [0.0, 1.0])
    with pytest.raises(ValueError, match="two"):
        loglog_slope([1], [1.0])


def test_timers_return_positive_seconds():
    torch.manual_seed(0)
    transformer = TransformerLM(TransformerConfig(20, context_length=32, n_layer=1, n_head=2, d_model=16, positional="rotary"))
    rnn = RNNLM(RNNConfig(20, d_embed=8, d_hidden=16))
    for model in (transformer, rnn):
        assert 0 < per_token_time(model, 16, n_steps=2, repeats=1) < 5
        prefill, decode = prefill_and_decode_times(model, 8, repeats=1, warmup=0)
        assert 0 < prefill < 5 and 0 < decode < 5


def test_cache_bytes_formula():
    assert cache_bytes_formula(n_layer=3, n_kv_heads=4, d_head=24, length=512) == 2 * 3 * 4 * 24 * 512 * 4
    assert cache_bytes_formula(2, 1, 8, 10, bytes_per_value=2, batch_size=3) == 2 * 2 * 1 * 8 * 10 * 2 * 3
    with pytest.raises(ValueError):
        cache_bytes_formula(0, 1, 8, 10)
        assert 0 < training_step_time(model, 16, batch_size=2, repeats=1) < 5
        assert all(p.grad is None for p in model.parameters())  # no gradients left behind


def test_kv_cache_benchmark_smoke():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_kv_cache.py"
    spec = importlib.util.spec_from_file_location("bench_kv_cache", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.run(tokens=24, n_layer=1, d_model=16, n_head=2, vocab_size=20)
    assert figures["outputs_match"] is True
    assert math.isfinite(figures["speedup"]) and figures["tokens_per_s_cached"] > 0


def test_median_tokens_per_second_skips_the_warm_up_and_outliers():
    from utils.generation_cost import median_tokens_per_second

    durations, now = iter([9.0, 0.5, 4.0, 0.5]), [0.0]
    speed = median_tokens_per_second(lambda: now.__setitem__(0, now[0] + next(durations)), 10, repeats=3,
                                     clock=lambda: now[0])
    assert speed == pytest.approx(20.0)


def test_theil_sen_ignores_one_outlier_that_moves_least_squares():
    from utils.generation_cost import loglog_slope, theil_sen_slope

    lengths = [64, 128, 256, 512, 1024]
    seconds = [1e-3 * n for n in lengths]
    assert abs(theil_sen_slope(lengths, seconds) - 1.0) < 1e-9
    seconds[-2] *= 30  # one burst of load
    assert abs(theil_sen_slope(lengths, seconds) - 1.0) < 0.3
    assert abs(loglog_slope(lengths, seconds) - 1.0) > 0.3


def test_interleaved_fastest_takes_the_minimum_after_warmup_round_robin():
    from utils.generation_cost import interleaved_fastest

    calls, values = [], iter([9.0, 9.0, 3.0, 5.0, 1.0, 7.0])  # warm-up round, then two rounds
    result = interleaved_fastest(lambda n: calls.append(n) or next(values), [1, 2], repeats=2, warmup=1)
    assert calls == [1, 2, 1, 2, 1, 2] and result == [1.0, 5.0]
    with pytest.raises(ValueError):
        interleaved_fastest(lambda n: 1.0, [], repeats=2)


def test_robust_timers_on_a_tiny_model():
    from utils.generation_cost import per_token_times, training_step_times
    from utils.transformer import TransformerConfig, TransformerLM

    model = TransformerLM(TransformerConfig(7, context_length=64, n_layer=1, n_head=2, d_model=8, positional="rotary"))
    assert all(t > 0 for t in per_token_times(model, [4, 8], n_steps=2, repeats=2))
    assert all(t > 0 for t in training_step_times(model, [4, 8], batch_size=2, repeats=2))
    assert not model.training
