"""The frozen reference workloads (speed unit U) and the benchmarks that report in U, on tiny sizes (seconds)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
import torch

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str):
    """Import benchmarks/<name>.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


reference = load("reference_workload")
TEXT = "".join(f"line {i}: to be, or not to be, that is the question.\n" for i in range(200))  # 11 KB, 30-odd characters


def test_reference_models_have_the_published_parameter_counts():
    # nanoGPT's recipe (4 x 4 x 128, no biases, tied embeddings, vocab 65, block 64): 804,096 weights
    # (it prints 0.80M, which leaves out the position table); makemore's (4 x 4 x 64 with biases, vocab 27, block 16): 204,544
    nano = reference.NanoGPTLike(65, 64, n_layer=4, n_head=4, n_embd=128)
    assert sum(p.numel() for p in nano.parameters()) == 804_096
    assert nano.token.weight is nano.head.weight
    assert round((804_096 - 64 * 128) / 1e6, 2) == 0.80
    assert sum(p.numel() for p in reference.MakemoreLike(27, 16).parameters()) == 204_544


def test_nanogpt_workload_runs_the_whole_recipe_shape_on_a_tiny_text():
    result = reference.nanogpt_char_run(TEXT, max_iters=6, eval_interval=3, eval_iters=2, n_layer=1, n_embd=32, block_size=16)
    assert result.steps == 7  # iterations 0..max_iters, as nanoGPT's loop runs them
    assert result.eval_steps == [0, 3, 6]
    vocab = len(set(TEXT))
    assert abs(result.eval_loss[0] - math.log(vocab)) < 0.3  # an untrained model is near uniform
    assert result.final_loss == result.eval_loss[-1] and result.best_loss == min(result.eval_loss)
    assert result.seconds > 0
    full = reference.nanogpt_full_val_loss(result.model, TEXT)
    assert 0 < full < math.log(vocab) + 0.3
    with pytest.raises(ValueError, match="too short"):
        reference.nanogpt_char_run(TEXT[:100], max_iters=1)


def test_makemore_workload_and_split():
    lines = [f"name{'abcdefg'[i % 7]}{'xyz'[i % 3]}" for i in range(300)] + ["", "  "]
    train, test, chars = reference.makemore_split(lines)
    assert len(test) == 30 and len(train) == 270 and "" not in train + test  # 10% (under 1000), blanks dropped
    assert reference.makemore_split(lines) == (train, test, chars)  # seeded
    result = reference.makemore_transformer_run("\n".join(lines), max_steps=4, eval_every=2, sample_every=2, n_layer=1, n_embd=16)
    assert result.steps == 4 and result.eval_steps == [2]  # evals at steps > 0 only, as makemore
    assert math.isfinite(result.best_loss) and result.best_loss == result.final_loss


def test_speed_unit_is_the_calibrated_workload_time():
    # a faithful re-implementation does the same work as the original: the factor stays near 1
    assert 0.8 < reference.NANOGPT_CALIBRATION < 1.25
    assert reference.speed_unit(100.0) == pytest.approx(100.0 * reference.NANOGPT_CALIBRATION)


def test_notebook_targets_are_checked_in_units():
    bench = load("bench_notebooks")
    results = {"01_a": {"seconds": 40.0, "peak_mib": 500, "ok": True}, "02_b": {"seconds": 60.0, "peak_mib": 500, "ok": True}}
    full = bench.verdicts(results, unit_s=100.0, mode="full")
    assert full["notebooks"]["02_b"] == {"cost_u": 0.6, "ok": False} and full["notebooks"]["01_a"]["ok"]
    assert full["total_u"] == 1.0 and full["total_ok"] and not full["within_targets"]
    assert bench.verdicts(results, unit_s=200.0, mode="full")["within_targets"]  # a slower machine: a bigger U
    assert not bench.verdicts(results, unit_s=200.0, mode="fast")["within_targets"]  # fast mode: <= 0.2 U each
    failed = {"01_a": {"seconds": 1.0, "peak_mib": 10, "ok": False}}
    assert not bench.verdicts(failed, unit_s=100.0, mode="fast")["within_targets"]


def skip_without_names() -> None:
    """Skip the test when names.txt cannot be read offline."""
    from utils.data import corpus_path

    try:
        corpus_path("names")
    except FileNotFoundError:
        pytest.skip("names.txt is not available offline (set $LM_DATA_MIRROR)")


def test_speed_benchmark_side_by_side_on_a_tiny_setting(capsys):
    skip_without_names()
    bench = load("bench_transformer_speed")
    summary = bench.main(["--corpus", "names", "--steps", "3", "--warmup", "1", "--batch-size", "8", "--threads", "1",
                          "--reference-scale", "0.0004", "--unit-seconds", "100", "--repeat", "2",
                          "--min-lr-ratio", "0.0", "--beta2", "0.95"])
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last_line) == json.loads(json.dumps(summary))
    for key in ("our_s", "reference_s", "ratio", "our_loss", "reference_loss", "threads", "torch", "unit_s"):
        assert key in summary, key
    assert summary["threads"] == torch.get_num_threads() == 1 and summary["torch"] == torch.__version__
    names = summary["corpora"]["names"]
    assert len(names["ratios"]) == 2 and names["ratio"] == pytest.approx(sorted(names["ratios"])[0] / 2 + sorted(names["ratios"])[1] / 2)
    first, second = names["runs"]
    assert first["ours"]["steps"] == 3 and first["reference"]["steps"] == 4  # 10000 steps x 0.0004
    assert first["ours"]["train"]["min_lr_ratio"] == 0.0 and tuple(first["ours"]["train"]["betas"]) == (0.9, 0.95)
    assert 2.0 < first["ours"]["loss"] < 4.0 and first["ours"]["params"] > 100_000
    assert summary["our_s"]["names"] == pytest.approx(names["our_s"]) and names["our_u"] == pytest.approx(names["our_s"] / 100, abs=1e-4)
    assert summary["meets_target"]["names"] is False and summary["meets_target_cpu"]["names"] is False  # 3 steps cannot reach 1.97
    assert names["cpu_ratio"] > 0 and first["ours"]["cpu_s"] > 0 and first["reference"]["cpu_s"] > 0


def test_speed_benchmark_model_option_reaches_the_config(capsys):
    from utils.transformer import TransformerConfig, TransformerLM

    skip_without_names()
    bench = load("bench_transformer_speed")
    options = ["--model-option", "d_ff=48", "--model-option", "n_kv_head=1", "--model-option", "rotary_base=500"]
    summary = bench.main(["--corpus", "names", "--no-reference", "--steps", "2", "--warmup", "1", "--batch-size", "4",
                          "--threads", "1", "--unit-seconds", "100", *options])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == json.loads(json.dumps(summary))
    assert summary["our_switches"]["model_options"] == {"d_ff": 48, "n_kv_head": 1, "rotary_base": 500.0}
    ours = summary["corpora"]["names"]["runs"][0]["ours"]
    assert ours["model"]["d_ff"] == 48 and ours["model"]["n_kv_head"] == 1 and ours["model"]["rotary_base"] == 500.0
    assert ours["model"]["n_layer"] == 4 and ours["model"]["d_model"] == 64  # the rest stays the recipe's
    expected = TransformerLM(TransformerConfig(**ours["model"])).num_parameters()
    recipe_size = TransformerLM(TransformerConfig(**{**ours["model"], "d_ff": None, "n_kv_head": None})).num_parameters()
    assert ours["params"] == expected < recipe_size  # the narrower model was the one trained
    assert bench.parse_model_options(["tie_weights=true", "d_ff=none", "positional=learned"]) == {
        "tie_weights": True, "d_ff": None, "positional": "learned"}


@pytest.mark.parametrize("option, message", [
    ("d_fff=256", "not a TransformerConfig field: choose one of context_length, n_layer, n_head, d_model, d_ff,"),
    ("vocab_size=10", "not a TransformerConfig field"),  # the corpus sets it
    ("d_ff=wide", "d_ff takes int, none"),
    ("tie_weights=1", "tie_weights takes bool"),
    ("n_layer", "KEY=VALUE"),
])
def test_speed_benchmark_model_option_errors_are_clear(capsys, option, message):
    bench = load("bench_transformer_speed")
    with pytest.raises(SystemExit):
        bench.main(["--corpus", "names", "--no-reference", "--model-option", option])
    assert message in capsys.readouterr().err
    with pytest.raises(ValueError, match="not a TransformerConfig field"):
        bench.parse_model_options(["n_embd=128"])
    with pytest.raises(SystemExit):
        bench.main(["--corpus", "names", "--no-reference", "--context", "16", "--model-option", "context_length=32"])
    assert "context_length set twice" in capsys.readouterr().err


def test_speed_switches_are_opt_in_and_work():
    from utils.batching import batch_sampler
    from utils.training import TrainConfig, autocast_dtype, make_optimizer, train
    from utils.transformer import TransformerConfig, TransformerLM

    assert TrainConfig().fused_optimizer is False and TrainConfig().cpu_bf16 is False  # notebooks stay fp32, foreach AdamW
    assert autocast_dtype(torch.device("cpu")) is None and autocast_dtype(torch.device("cpu"), cpu_bf16=True) is torch.bfloat16
    data = torch.arange(400) % 7  # a periodic text: easy to learn

    def run(**switches) -> list[float]:
        torch.manual_seed(0)
        model = TransformerLM(TransformerConfig(vocab_size=7, context_length=8, n_layer=1, n_head=2, d_model=16))
        config = TrainConfig(steps=30, lr=1e-2, progress=False, **switches)
        assert make_optimizer(model, config).defaults["fused"] is (True if config.fused_optimizer else None)
        return train(model, batch_sampler(data, 4, 8, generator=torch.Generator().manual_seed(0)), config).train_loss

    plain, fused, bf16 = run(), run(fused_optimizer=True), run(cpu_bf16=True)
    assert plain[-1] < plain[0] - 0.5 and fused[-1] < fused[0] - 0.5 and bf16[-1] < bf16[0] - 0.5
    assert abs(fused[-1] - plain[-1]) < 0.05  # the same algorithm, other rounding
    assert bf16 != plain  # bf16 autocast really ran (other rounding from the first step)


@pytest.mark.slow
def test_compile_benchmark_reports_compile_time_and_both_step_times(capsys):
    bench = load("bench_compile")
    summary = bench.main(["--steps", "2", "--threads", "1"])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == summary
    assert summary["compile_seconds"] > 0 and summary["eager_ms_per_step"] > 0 and summary["compiled_ms_per_step"] > 0
    gain = summary["eager_ms_per_step"] - summary["compiled_ms_per_step"]
    assert (summary["payback_steps"] is None) == (gain <= 0)


def test_speed_benchmark_lean_trains_the_corpus_lean_recipe(capsys):
    skip_without_names()
    bench = load("bench_transformer_speed")
    summary = bench.main(["--corpus", "names", "--no-reference", "--lean", "--steps", "2", "--warmup", "1",
                          "--batch-size", "4", "--threads", "1", "--unit-seconds", "100"])
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == json.loads(json.dumps(summary))
    assert summary["our_switches"]["lean"] is True
    ours = summary["corpora"]["names"]["runs"][0]["ours"]
    assert (ours["model"]["n_layer"], ours["model"]["d_ff"], ours["model"]["n_kv_head"], ours["model"]["d_model"]) == (3, 128, 1, 64)
    assert ours["train"]["lr"] == 6e-3 and ours["train"]["min_lr_ratio"] == 0.0 and ours["steps"] == 2
    assert ours["params"] < 0.45 * 204_544  # the items recipe's model has makemore's 204,544 weights


def test_the_unit_timed_before_and_after_is_their_mean_with_its_drift():
    bench = load("bench_notebooks")
    before = {"unit_s": 200.0, "workload_s": 20.0, "scale": 0.125, "source": "measured in this run"}
    unit = bench.bracketed_unit(before, {**before, "unit_s": 260.0})
    assert unit["unit_s"] == 230.0 and unit["unit_before_s"] == 200.0 and unit["unit_after_s"] == 260.0
    assert unit["drift"] == pytest.approx(0.3) and abs(unit["drift"]) > bench.DRIFT_WARNING  # printed as a warning
    assert "before and after" in unit["source"]
    assert bench.bracketed_unit(before, before)["drift"] == 0.0


def test_notebook_benchmark_divides_by_the_unit_timed_before_and_after(monkeypatch, capsys, tmp_path):
    bench = load("bench_notebooks")
    (tmp_path / "tinyshakespeare.txt").write_text("a b\n", encoding="utf-8")
    monkeypatch.setenv("LM_DATA_MIRROR", str(tmp_path))
    units = iter([100.0, 140.0])  # the machine slows during the run
    monkeypatch.setattr(bench, "measure_unit", lambda text, scale: {"unit_s": next(units), "source": "stub"})
    monkeypatch.setattr(bench, "run_notebook", lambda path, timeout: {"seconds": 24.0, "peak_mib": 100, "ok": True, "error": None})
    monkeypatch.setattr(sys, "argv", ["bench_notebooks.py", "--fast", "--only", "01_"])
    bench.main()
    out = capsys.readouterr().out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["unit_s"] == 120.0 and summary["unit"]["drift"] == pytest.approx(0.4)
    assert summary["notebooks"]["01_autoregression"]["cost_u"] == 0.2 and summary["within_targets"]  # 24 s / 120 s
    assert "WARNING: the machine's speed changed by +40%" in out
    units = iter([100.0])
    monkeypatch.setattr(sys, "argv", ["bench_notebooks.py", "--fast", "--only", "01_", "--unit-once"])
    bench.main()
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["unit_s"] == 100.0 and "drift" not in summary["unit"] and not summary["within_targets"]  # 0.24 U
