"""The CPU tier: notebooks run in fast mode as a CUDA GPU computes (LM_PRECISION=tf32), on any CPU.

In the tier (utils.device: the precision policy), a notebook's kernel rounds the factors of cuDNN's products (nn.RNN,
nn.GRU, convolutions) to TF32's 10 mantissa bits and trains under bf16 autocast, as a GPU does under the course's
policy. Default run: the notebooks of TIER_NOTEBOOKS, whose asserts compare numbers closely enough for the GPU's
precision to matter; `pytest -m slow`: all twelve. Each runs in a fresh kernel with its own, empty checkpoint folder
(the zoo's models trained in bf16 never meet those of the float32 runs). No conftest.py setting is involved: each test
sets $LM_PRECISION for the kernel it starts. `LM_PRECISION=tf32 python -m pytest notebooks/` runs nbval's notebooks in the
tier too (the unit tests assume it unset: in the tier, float32 on the CPU is no longer float32).

And the proof that the tier catches what it was built for: notebook 04's equality checks as they were before issue 31
(tests/fixtures/precision/), which passed on every CPU and failed on an NVIDIA H200, fail in the tier too, and the
notebook's checks today (utils.precision_check.check_same) pass there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TIER = "tf32"
# the default run's subset, and why each is in it (the others run under `pytest -m slow`)
TIER_NOTEBOOKS = {
    "04_recurrent_networks.ipynb": "written-out recurrences against nn.RNN's kernel, which a GPU runs in TF32",
}
ALL_NOTEBOOKS = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
OLD_CELL = ROOT / "tests" / "fixtures" / "precision" / "nb04_cell04_before_issue31.py"


def _tier_case(name: str):
    marks = [] if name in TIER_NOTEBOOKS else [pytest.mark.slow]
    return pytest.param(name, marks=marks, id=name.split("_")[0])


@pytest.mark.parametrize("name", [_tier_case(n) for n in ALL_NOTEBOOKS])
def test_notebook_runs_in_the_cpu_tier(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LM_PRECISION", TIER)  # the kernel inherits the environment: utils enters the tier on import
    monkeypatch.setenv("LM_FAST", "1")
    monkeypatch.setenv("LM_CHECKPOINT_DIR", str(tmp_path))
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:
        client.execute()
    except CellExecutionError as error:
        lines = str(error).strip().splitlines()
        pytest.fail(f"{name} under LM_PRECISION={TIER} (fast mode): a cell failed:\n" + "\n".join(lines[-15:]))


# Runs notebook 04's parameters and set-up cells, then one version of its cell-04, in a fresh namespace;
# prints one JSON line: {scenario: "passed" or the AssertionError's message}.
_DRIVER = r"""
import contextlib, json, sys
import nbformat
from utils.device import emulate_tier

cells = {c.id: c.source for c in nbformat.read(sys.argv[1], as_version=4).cells}
versions = {"before issue 31": open(sys.argv[2], encoding="utf-8").read(), "today": cells["cell-04"]}
outcomes = {}
for version, tier in (("before issue 31", None), ("before issue 31", "tf32"), ("today", None), ("today", "tf32")):
    namespace = {}
    for cell_id in ("cell-01", "cell-02"):
        exec(cells[cell_id], namespace)
    with emulate_tier(tier) if tier else contextlib.nullcontext():
        try:
            exec(versions[version], namespace)
            outcome = "passed"
        except AssertionError as error:
            outcome = f"{type(error).__name__}: {error}"
    outcomes[f"{version}, {tier or 'float32'}"] = outcome
print(json.dumps(outcomes))
"""


def test_the_tier_fails_notebook_04s_old_assert_and_passes_its_check_today() -> None:
    env = {**os.environ, "LM_FAST": "1", "LM_PRECISION": ""}  # the tier is entered by the driver, per scenario
    run = subprocess.run([sys.executable, "-c", _DRIVER, str(NOTEBOOKS / "04_recurrent_networks.ipynb"), str(OLD_CELL)],
                         capture_output=True, text=True, timeout=600, cwd=NOTEBOOKS, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    outcomes = json.loads(run.stdout.strip().splitlines()[-1])
    assert outcomes["before issue 31, float32"] == "passed", outcomes  # the fixture is a fair copy: it held on a CPU
    assert outcomes["before issue 31, tf32"] == (
        "AssertionError: the written-out recurrence and utils.rnn.RNNLM disagree"), outcomes  # the H200's failure
    assert outcomes["today, float32"] == "passed", outcomes
    assert outcomes["today, tf32"] == "passed", outcomes
