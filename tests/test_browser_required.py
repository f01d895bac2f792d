"""With $LM_REQUIRE_BROWSER=1 (.ci/run), a machine without Chromium fails the run instead of skipping the browser tier."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_RUN_WITHOUT_CHROMIUM = """
import os, sys
import pytest
import tests.browser.lab as lab
lab.CHROMIUM_CANDIDATES = ()  # no Chromium anywhere
os.environ.pop("LM_CHROMIUM", None)
if sys.argv[1] == "1":
    os.environ["LM_REQUIRE_BROWSER"] = "1"
else:
    os.environ.pop("LM_REQUIRE_BROWSER", None)
raise SystemExit(pytest.main(["-q", "-n", "0", "-p", "no:cacheprovider", "tests/browser/test_bench_widget_latency.py"]))
"""


def _run(required: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _RUN_WITHOUT_CHROMIUM, required], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_without_chromium_the_required_browser_tier_stops_the_run():
    run = _run("1")
    assert run.returncode != 0
    assert "LM_REQUIRE_BROWSER=1 but the browser tests cannot run: Chromium is not installed" in run.stdout + run.stderr


def test_without_chromium_and_not_required_the_browser_tier_is_left_to_skip():
    run = _run("0")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
