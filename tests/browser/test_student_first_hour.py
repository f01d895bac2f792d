"""A student's first hour, end to end: a fresh clone, the README's open command, Run All in JupyterLab, and the
clone stays clean (`git status --porcelain` prints nothing), so the next `git pull` of course updates is plain.

The README sends a student to `python -m utils.student open`, which copies the student edition into my-work/
(ignored by git) and serves it. Here the clone is of this repository's HEAD in a temporary folder; JupyterLab
serves my-work/ as the open command does, Chromium runs every cell of 01 (the run stops at the first exercise
stub, as it does for a student) and saves the notebook with its outputs, as JupyterLab's autosave would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.browser.lab import (
    REPO_ROOT,
    LabServer,
    browser_unavailable_reason,
    offline_context,
    open_notebook,
    run_all_cells,
)

NAME = "01_autoregression.ipynb"


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_run_all_in_the_students_copy_leaves_the_clone_clean(tmp_path, browser):
    reason = browser_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    clone = tmp_path / "course"
    _git("clone", "--quiet", "--no-checkout", str(REPO_ROOT), str(clone), cwd=tmp_path)
    _git("checkout", "--quiet", _git("rev-parse", "HEAD", cwd=REPO_ROOT).strip(), cwd=clone)
    env = {**os.environ, "PYTHONPATH": str(clone), "LM_FAST": "1"}
    opened = subprocess.run([sys.executable, "-m", "utils.student", "open", "01", "--no-lab"], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=300)
    assert opened.returncode == 0, opened.stderr
    work = clone / "my-work"
    copy = work / NAME
    assert copy.is_file(), f"the open command did not copy {NAME} into my-work/: {opened.stdout}"
    text = copy.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, "the student's copy holds answers"
    assert _git("status", "--porcelain", cwd=clone) == "", "the open command changed tracked files"

    server = LabServer(root_dir=work, state_dir=tmp_path / "state", env={"PYTHONPATH": str(clone)})
    server.state_dir.mkdir()
    server.start(timeout_s=180)
    try:
        # A context of its own in the suite's one Chromium: a second sync Playwright would fail inside the first's loop.
        context = offline_context(browser.browser)
        try:
            page = open_notebook(context, server, NAME, timeout_s=300)
            state = run_all_cells(page, timeout_s=900)
            assert state["executed"] > 5 and state["errors"] == 1, f"Run All did not reach the first exercise: {state}"
            before = copy.stat().st_mtime_ns
            page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
            page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=60_000)
        finally:
            context.close()
    finally:
        server.stop()
    saved = nbformat.read(copy, as_version=4)
    assert copy.stat().st_mtime_ns != before and any(c.get("outputs") for c in saved.cells), "nothing was saved"
    errors = [o for c in saved.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert [o["ename"] for o in errors] == ["NotImplementedError"], "the run should stop at exercise 1's stub"
    assert _git("status", "--porcelain", "--ignored=no", cwd=clone) == "", "a student's run dirtied the clone"
