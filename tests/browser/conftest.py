"""Fixtures shared by the browser tests: one Chromium and one JupyterLab for the whole browser suite.

Every widget notebook (and 07, whose head view tests/browser/test_attention_widget_07.py checks) is opened
and run once, side by side, in one JupyterLab; each test file then drives the pages it needs. The root
conftest.py sends tests/browser/ whole to one pytest-xdist worker, so the package-scoped fixtures are built once
there, and closed after the package's last test (Playwright's sync API holds an asyncio loop while it is open, which
would break later tests on that worker that run their own loop, e.g. tests/test_widget_ngram.py).
$LM_BROWSER_NOTEBOOKS=05_attention.ipynb,... limits the run to some notebooks while working on them.
Without Chromium or Playwright the browser tests skip, unless $LM_REQUIRE_BROWSER=1 (.ci/run sets it): then the
run stops at collection with the reason, so CI cannot pass with the browser tier skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.demo_notebooks import write_broken_notebook, write_demo_notebook, write_zh_widget_notebook
from tests.browser.lab import (
    NOTEBOOKS_DIR,
    WIDGET_NOTEBOOKS,
    browser_unavailable_reason,
    launch_chromium,
    open_notebook,
    start_lab,
    start_run_all,
    wait_for_run,
)

_MISSING = browser_unavailable_reason()
if _MISSING is not None and os.environ.get("LM_REQUIRE_BROWSER") == "1":
    raise pytest.UsageError(f"$LM_REQUIRE_BROWSER=1 but the browser tests cannot run: {_MISSING}")

# Notebooks run in the shared JupyterLab besides the widget notebooks (their widgets have their own test files).
EXTRA_LAB_NOTEBOOKS = ("07_transformer_lm.ipynb",)
_ONLY = [name for name in os.environ.get("LM_BROWSER_NOTEBOOKS", "").split(",") if name]
LAB_NOTEBOOKS = [name for name in (*WIDGET_NOTEBOOKS, *EXTRA_LAB_NOTEBOOKS)
                 if (NOTEBOOKS_DIR / name).is_file() and (not _ONLY or name in _ONLY)]


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where screenshots are written: $LM_SCREENSHOT_DIR, or a pytest tmp folder."""
    folder = Path(os.environ.get("LM_SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="package")
def browser():
    """One headless Chromium context (no network) for the browser suite."""
    reason = browser_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    with launch_chromium(viewport=(1400, 1200)) as context:
        yield context


@pytest.fixture(scope="package")
def lab_pages(tmp_path_factory, browser):
    """One JupyterLab with the harness's demo and broken notebooks and LAB_NOTEBOOKS, all opened and run at once
    (kernels start and run side by side): ({name: page}, {name: run state})."""
    source = tmp_path_factory.mktemp("notebooks")
    harness = [write_demo_notebook(source).name, write_broken_notebook(source).name,
               write_zh_widget_notebook(source).relative_to(source).as_posix()]
    for name in LAB_NOTEBOOKS:
        (source / name).write_bytes((NOTEBOOKS_DIR / name).read_bytes())
    with start_lab(harness + LAB_NOTEBOOKS, source=source) as server:
        pages = {name: open_notebook(browser, server, name) for name in harness + LAB_NOTEBOOKS}
        for page in pages.values():
            start_run_all(page)
        runs = {name: wait_for_run(page, timeout_s=600) for name, page in pages.items()}
        yield pages, runs
        for page in pages.values():
            page.close()


@pytest.fixture(scope="package")
def lab_page(lab_pages):
    """lab_page(name): the shared JupyterLab's page of notebook `name`, which ran top to bottom with no error
    (a test fails if it did not; skips if $LM_BROWSER_NOTEBOOKS left it out)."""
    pages, runs = lab_pages

    def page_of(name: str):
        if name not in pages:
            pytest.skip(f"{name} is not in this run ($LM_BROWSER_NOTEBOOKS)")
        run = runs[name]
        assert run["errors"] == 0 and run["executed"] == run["total"], f"{name}: {run}"
        return pages[name]

    return page_of
