"""Smoke test of benchmarks/bench_widget_latency.py without a browser: input checks and screenshot shrinking."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_widget_latency.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_widget_latency", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rejects_notebooks_without_a_known_widget(bench):
    with pytest.raises(ValueError, match="no known widget"):
        bench.main(["03_fixed_window_neural_lm.ipynb"])


def test_rejects_zero_moves(bench):
    with pytest.raises(ValueError, match="--moves"):
        bench.main(["--moves", "0", "05_attention.ipynb"])


def test_screenshots_are_saved_smaller(bench, tmp_path):
    from PIL import Image

    rng = np.random.default_rng(0)
    pixels = np.repeat(rng.integers(0, 4, size=(60, 80, 1), dtype=np.uint8) * 60, 3, axis=2)  # (H, W, RGB)
    pixels[20:40] = [30, 120, 200]
    raw = io.BytesIO()
    Image.fromarray(pixels).save(raw, format="PNG", compress_level=0)
    size = bench.save_small_png(raw.getvalue(), tmp_path / "shots" / "w.png")
    assert 0 < size < len(raw.getvalue())
    assert Image.open(tmp_path / "shots" / "w.png").size == (80, 60)


def test_busy_share_reads_the_cpu_time_between_two_readings(bench):
    assert bench.busy_share((100, 1000), (150, 1200)) == 0.25
    assert bench.busy_share(None, (1, 2)) is None and bench.busy_share((5, 10), (5, 10)) is None
    reading = bench.cpu_jiffies()
    if reading is not None:  # Linux: busy never exceeds the total, and both only grow
        busy, total = reading
        assert 0 <= busy <= total
        later = bench.cpu_jiffies()
        assert later[0] >= busy and later[1] >= total


def test_settle_returns_once_the_cpu_is_quiet_or_the_time_is_up(bench, monkeypatch):
    readings = iter([(0, 100), (90, 200), (90, 200), (95, 300)])  # 90% busy, then 5%
    monkeypatch.setattr(bench, "cpu_jiffies", lambda: next(readings))
    monkeypatch.setattr(bench.time, "sleep", lambda s: None)
    assert bench.settle(max_s=60) == 0.05
    readings = iter([(0, 100), (90, 200)])
    monkeypatch.setattr(bench, "cpu_jiffies", lambda: next(readings))
    assert bench.settle(max_s=-1) == 0.9  # no time left: the last share, still busy


def test_kernel_rows_are_compared_with_the_reference_timed_just_before_them(bench):
    demo, mask = "lm-demo-widget", "lm-mask-widget"
    rows = [bench.row(demo, "main control", "kernel", [120.0, 125.0, 130.0], "demo.ipynb"),
            bench.row(mask, "samples complete", "kernel", [160.0, 170.0, 300.0], "08.ipynb"),
            bench.row(mask, "click", "browser", [10.0, 12.0, 14.0], "08.ipynb"),
            bench.row(demo, "main control (again)", "kernel", [60.0, 70.0, 80.0], "demo.ipynb"),
            bench.row(mask, "maps", "kernel", [100.0, 110.0, 120.0], "06.ipynb")]
    assert bench.over_reference(rows, demo) == 97.5  # the median of the two references' medians
    assert (rows[1]["reference_median_ms"], rows[1]["over_reference_ms"]) == (125.0, 45.0)
    assert (rows[4]["reference_median_ms"], rows[4]["over_reference_ms"]) == (70.0, 40.0), "the reference just before"
    assert rows[1]["meets_relative_target"] is True, "170 <= 1.48 x 125 and 300 <= 3.69 x 125"
    assert rows[4]["meets_relative_target"] is False, "110 ms is more than 1.48 x 70 ms"
    assert not any(key in rows[i] for i in (0, 2, 3) for key in ("over_reference_ms", "meets_relative_target"))
    assert bench.over_reference(rows[1:3], demo) is None  # no reference timed before: nothing to compare with
    assert "over_reference_ms" not in bench.row(mask, "x", "kernel", [1.0], "08.ipynb")


def test_all_rows_meet_the_relative_target_only_if_each_side_meets_its_own(bench):
    browser = bench.row("lm-attention-widget", "hover", "browser", [5.0, 6.0], "05.ipynb")
    slow_browser = bench.row("lm-attention-widget", "hover", "browser", [5.0, 60.0], "05.ipynb")
    kernel = {**bench.row("lm-mask-widget", "maps", "kernel", [150.0], "08.ipynb"), "meets_relative_target": True}
    assert not kernel["meets_target"] and bench.all_meet_relative_target([browser, kernel])
    assert bench.all_meet_relative_target([browser]), "a run with browser rows only (06, 09 alone)"
    assert not bench.all_meet_relative_target([slow_browser, kernel]), "a browser max of 60 ms misses"
    assert not bench.all_meet_relative_target([browser, {**kernel, "meets_relative_target": False}])
    assert not bench.all_meet_relative_target([browser, bench.row("lm-mask-widget", "maps", "kernel", [50.0], "08")]), (
        "a kernel row never compared with a reference has not met the relative target")
    assert not bench.all_meet_relative_target([])
