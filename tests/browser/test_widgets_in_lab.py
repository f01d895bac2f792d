"""The widgets as a student sees them: JupyterLab in headless Chromium runs each widget notebook,
every widget renders (no error, no text fallback, no traceback), and the required ones react
when a person moves their main control. Screenshots go to $LM_SCREENSHOT_DIR (else a tmp folder);
$LM_BROWSER_NOTEBOOKS=05_attention.ipynb,... limits the run to some notebooks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.demo_notebooks import DEMO_WIDGET_CLASS, write_broken_notebook, write_demo_notebook
from tests.browser.lab import (
    NOTEBOOKS_DIR,
    REQUIRED_WIDGETS,
    WIDGET_NOTEBOOKS,
    browser_unavailable_reason,
    launch_chromium,
    move_main_control,
    open_notebook,
    output_problems,
    screenshot_widget,
    start_lab,
    start_run_all,
    wait_for_new_figure,
    wait_for_run,
    widget_state,
)

_REASON = browser_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")

# $LM_BROWSER_NOTEBOOKS (comma-separated names) limits the run to some notebooks while working on them.
_ONLY = [name for name in os.environ.get("LM_BROWSER_NOTEBOOKS", "").split(",") if name]
PRESENT = [name for name in WIDGET_NOTEBOOKS if (NOTEBOOKS_DIR / name).is_file() and (not _ONLY or name in _ONLY)]


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where screenshots are written: $LM_SCREENSHOT_DIR, or a pytest tmp folder."""
    folder = Path(os.environ.get("LM_SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as context:
        yield context


@pytest.fixture(scope="module")
def lab_pages(tmp_path_factory, browser):
    """One JupyterLab with the harness's demo and broken notebooks and every widget notebook of the
    course, all opened and run at once (kernels start and run side by side)."""
    source = tmp_path_factory.mktemp("notebooks")
    harness = [write_demo_notebook(source).name, write_broken_notebook(source).name]
    for name in PRESENT:
        (source / name).write_bytes((NOTEBOOKS_DIR / name).read_bytes())
    with start_lab(harness + PRESENT, source=source) as server:
        pages = {name: open_notebook(browser, server, name) for name in harness + PRESENT}
        for page in pages.values():
            start_run_all(page)
        runs = {name: wait_for_run(page, timeout_s=270) for name, page in pages.items()}
        yield pages, runs
        for page in pages.values():
            page.close()


def test_harness_moves_a_widget_and_sees_the_new_figure(lab_pages):
    pages, runs = lab_pages
    page = pages["demo_widget.ipynb"]
    assert runs["demo_widget.ipynb"]["executed"] == runs["demo_widget.ipynb"]["total"] == 2
    assert output_problems(page) == []
    before = widget_state(page, DEMO_WIDGET_CLASS)
    assert before["found"] and before["has_control"] and before["n_figures"] == 1 and before["complete"]
    assert move_main_control(page, DEMO_WIDGET_CLASS) == "slider ArrowRight"
    after = wait_for_new_figure(page, DEMO_WIDGET_CLASS, before)
    assert after["sources"] != before["sources"]
    assert after["control_value"].split()[0] == "2", after["control_value"]


def test_harness_reports_broken_outputs(lab_pages):
    pages, runs = lab_pages
    page = pages["broken_outputs.ipynb"]
    assert runs["broken_outputs.ipynb"]["errors"] == 1
    problems = "\n".join(output_problems(page))
    assert "widget as text" in problems
    assert "model not found" in problems or "Error displaying widget" in problems
    assert "Traceback" in problems or "ValueError" in problems


@pytest.mark.parametrize("name", list(WIDGET_NOTEBOOKS))
def test_widget_notebook_renders_in_lab(name, lab_pages, screenshot_dir):
    if name not in PRESENT:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    pages, runs = lab_pages
    page, run = pages[name], runs[name]
    assert run["errors"] == 0 and run["executed"] == run["total"], f"{name}: {run}"
    assert output_problems(page) == [], f"{name}: broken outputs"
    for widget_class in WIDGET_NOTEBOOKS[name]:
        page.wait_for_selector(f".{widget_class} .lm-figure", timeout=15_000)
        state = widget_state(page, widget_class)
        assert state["found"], f"{name}: no element with class {widget_class} (CONTRIBUTING.md, Widgets)"
        assert state["has_control"], f"{name}: {widget_class} has no .lm-main-control"
        assert state["n_figures"] > 0 and state["complete"], f"{name}: {widget_class} shows no drawn .lm-figure"
        screenshot_widget(page, widget_class, screenshot_dir / f"{Path(name).stem}.png")


@pytest.mark.parametrize("widget_class", REQUIRED_WIDGETS)
def test_required_widget_reacts_to_its_control(widget_class, lab_pages):
    pages, _ = lab_pages
    name = next(n for n, classes in WIDGET_NOTEBOOKS.items() if widget_class in classes)
    if name not in pages:
        pytest.skip(f"notebooks/{name} is not in the repository yet")
    page = pages[name]
    before = widget_state(page, widget_class)
    assert before["found"] and before["has_control"], f"{name}: {widget_class} or its .lm-main-control is missing"
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    how = move_main_control(page, widget_class)
    after = wait_for_new_figure(page, widget_class, before)
    assert after["control_value"] != before["control_value"], (
        f"{name}: the control still shows {before['control_value']!r} after {how}"
    )
    assert after["sources"] != before["sources"], f"{name}: the figure did not change after {how}"
    assert output_problems(page) == [], f"{name}: moving the control broke an output"


def test_ngram_sample_follows_a_move_once_the_controls_rest(lab_pages):
    """The n-gram widget defers its sample until the controls rest (an asyncio timer in the kernel): it must still come."""
    pages, _ = lab_pages
    name, widget_class = "02_ngram_models.ipynb", "lm-ngram-widget"
    if name not in pages:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    page = pages[name]
    sample_selector = f".{widget_class} pre"
    page.wait_for_selector(sample_selector, timeout=15_000)
    old_sample = page.locator(sample_selector).first.inner_text()
    before = widget_state(page, widget_class)
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    move_main_control(page, widget_class)
    wait_for_new_figure(page, widget_class, before)
    page.wait_for_function(
        "([selector, old]) => { const e = document.querySelector(selector); return e !== null && e.innerText !== old; }",
        arg=[sample_selector, old_sample], timeout=10_000)
    assert output_problems(page) == [], f"{name}: the deferred sample broke an output"
