"""The static site, built for a few notebooks in fast mode and opened from disk in Chromium with
the network cut: figures load, every widget renders its saved state, formulas are typeset, the
anywidget views stay interactive without a kernel (hover a token, move T, k, p), the controls that
need one (a new text) are disabled with a visible note, and no page asks for anything outside the site folder.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.browser.demo_notebooks import (
    DEMO_WIDGET_CLASS,
    write_anywidget_notebook,
    write_demo_notebook,
    write_figure_notebook,
)
from tests.browser.lab import NOTEBOOKS_DIR, REQUIRED_WIDGETS, WIDGET_NOTEBOOKS, browser_unavailable_reason, offline_context
from utils.site import build_site
from utils.site.__main__ import main as site_main

_REASON = browser_unavailable_reason()


def _real_widget_notebook() -> str | None:
    """One course notebook with a widget (a required one first) in the repository, to build for real."""
    present = [name for name in WIDGET_NOTEBOOKS if (NOTEBOOKS_DIR / name).is_file()]
    required = [name for name in present if any(c in REQUIRED_WIDGETS for c in WIDGET_NOTEBOOKS[name])]
    return (required or present or [None])[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A site built from the demo widget notebook, the figure notebook and one real widget notebook."""
    source = tmp_path_factory.mktemp("site-src")
    notebooks = [write_demo_notebook(source, "01_demo_widget.ipynb"), write_figure_notebook(source, "02_figure.ipynb"),
                 write_anywidget_notebook(source, "03_anywidgets.ipynb")]
    real = _real_widget_notebook()
    if real is not None:
        notebooks.append(Path(shutil.copy2(NOTEBOOKS_DIR / real, source / real)))
    out = tmp_path_factory.mktemp("site")
    lessons = build_site(out, notebooks, fast=True, timeout_s=300, log=lambda message: None)
    return out, lessons, real


def test_build_writes_pages_index_and_vendored_scripts(site):
    out, lessons, real = site
    assert [lesson.page for lesson in lessons] == sorted(lesson.page for lesson in lessons)
    index = (out / "index.html").read_text()
    positions = [index.index(f'href="{lesson.page}"') for lesson in lessons]
    assert positions == sorted(positions), "index is not in course order"
    assert "Figure and formula" in index
    for lesson in lessons:
        page = (out / lesson.page).read_text()
        assert "cdn.jsdelivr" not in page and "unpkg.com" not in page and "cdnjs" not in page
        assert '<script src="vendor/html-manager/embed-amd.js"></script>' in page or "widget-state" not in page
        assert '<script src="vendor/requirejs/require.js"></script>' in page or "widget-state" not in page
        assert (out / "notebooks" / lesson.notebook.name).is_file()
    assert (out / "vendor" / "html-manager" / "embed-amd.js").stat().st_size > 1_000_000
    assert (out / "vendor" / "html-manager" / "LICENSE").is_file()
    for vendored in ("requirejs/require.js", "requirejs/LICENSE", "anywidget/index.js", "anywidget/LICENSE"):
        assert (out / "vendor" / vendored).is_file(), vendored
    assert (out / "vendor" / "mathjax" / "tex-svg-full.js").is_file()
    if real is not None and (NOTEBOOKS_DIR.parent / "lessons" / Path(real).with_suffix(".md").name).is_file():
        lesson = next(lesson for lesson in lessons if lesson.notebook.name == real)
        plan = (out / lesson.lesson_page).read_text()
        assert f'href="{lesson.page}' in plan and ".ipynb#" not in plan, "lesson plan does not link the built page"
        assert f'href="{lesson.lesson_page}"' in index


def test_cli_rejects_a_missing_notebook(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        site_main(["build", "--out", str(tmp_path / "site"), "--fast", str(tmp_path / "09_missing.ipynb")])


_PAGE_STATE_JS = """() => {
  const outputs = Array.from(document.querySelectorAll('.jp-OutputArea-output'));
  const images = outputs.flatMap(o => Array.from(o.querySelectorAll('img')));
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length;
  return {
    images: images.length,
    images_loaded: images.filter(i => i.complete && i.naturalWidth > 0).length,
    widget_views: views,
    widgets_rendered: document.querySelectorAll('.widget-subarea').length,
    formulas: document.querySelectorAll('mjx-container').length,
    broken: document.body.innerText.includes('Error displaying widget') || document.body.innerText.includes('model not found'),
  };
}"""


@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_pages_show_figures_widgets_and_formulas_offline(site, browser):
    out, lessons, real = site
    outside_requests, failed = [], []
    # A fresh context of the browser suite's Chromium (one Playwright per process: tests/browser/conftest.py).
    with contextlib.closing(offline_context(browser.browser)) as context:
        context.on("request", lambda r: None if r.url.startswith(("file://", "data:", "blob:")) else outside_requests.append(r.url))
        context.on("requestfailed", lambda r: failed.append(r.url))
        page = context.new_page()
        page.goto((out / "index.html").as_uri())
        links = page.eval_on_selector_all("ol.lm-lessons li > a", "links => links.map(a => a.getAttribute('href'))")
        assert links == [lesson.page for lesson in lessons]
        states = {}
        for lesson in lessons:
            page.goto((out / lesson.page).as_uri(), wait_until="load")
            page.wait_for_function(
                "() => document.querySelectorAll('.widget-subarea').length >= "
                "document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]').length",
                timeout=30_000,
            )
            page.wait_for_function("() => !window.MathJax || !window.MathJax.startup || window.MathJax.startup.promise", timeout=30_000)
            page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            states[lesson.page] = page.evaluate(_PAGE_STATE_JS)
            if lesson.page == "01_demo_widget.html":
                demo = page.evaluate(
                    """(cls) => { const w = document.querySelector('.' + cls);
                        const img = w && w.querySelector('img.lm-figure');
                        return {found: !!w, slider: !!(w && w.querySelector('.lm-main-control')),
                                figure: !!img && img.complete && img.naturalWidth > 0}; }""",
                    DEMO_WIDGET_CLASS,
                )
                assert demo == {"found": True, "slider": True, "figure": True}, demo
                page.screenshot(path=str(out / "demo_widget.png"))
            if lesson.page == "03_anywidgets.html":
                anywidget_checks(page, out)
            if real is not None and lesson.page == Path(real).with_suffix(".html").name:
                page.screenshot(path=str(out / "real_widget.png"), full_page=True)
                ids = set(page.eval_on_selector_all("[id]", "nodes => nodes.map(n => n.id)"))
                if lesson.lesson_page:
                    page.goto((out / lesson.lesson_page).as_uri(), wait_until="load")
                    anchors = page.eval_on_selector_all(
                        f'a[href^="{lesson.page}#"]', "links => links.map(a => a.hash.slice(1))"
                    )
                    # A fragment finds the element whose id is the fragment as written, or decoded (HTML spec).
                    missing = [a for a in anchors if a not in ids and unquote(a) not in ids]
                    assert not missing, f"{lesson.lesson_page} links to sections {lesson.page} does not have: {missing}"
    assert outside_requests == [], f"pages asked the network for {outside_requests}"
    assert failed == [], f"files missing from the site: {failed}"
    for name, state in states.items():
        assert not state["broken"], f"{name}: a widget failed to render: {state}"
        assert state["images_loaded"] == state["images"], f"{name}: some figures did not load: {state}"
        assert state["widgets_rendered"] >= state["widget_views"], f"{name}: not every widget rendered: {state}"
    assert states["01_demo_widget.html"]["widget_views"] == 1
    assert states["01_demo_widget.html"]["images"] >= 1
    assert states["02_figure.html"]["images"] == 1 and states["02_figure.html"]["formulas"] >= 1
    assert states["03_anywidgets.html"]["widget_views"] == 4
    if real is not None:
        real_state = states[Path(real).with_suffix(".html").name]
        assert real_state["widget_views"] >= 1 and real_state["images"] >= 1, real_state


def anywidget_checks(page, out: Path) -> None:
    """The saved anywidget views, with no kernel: hover and arrow keys move the query, T and top-k re-weight the bars,
    a click or an arrow key chooses a grid cell, the positional explorer's encoding, base and curve dimensions redraw;
    a new text and a new prefix are disabled with a visible note."""
    page.wait_for_selector(".lm-attention-widget .lm-attn-token", timeout=30_000)
    page.wait_for_selector(".lm-temperature-widget rect.lm-bar", timeout=30_000)
    page.wait_for_selector(".lm-attention-widget .lm-kernel-note", timeout=10_000)
    kernel_row = page.locator(".lm-attention-widget .lm-needs-kernel").first
    assert kernel_row.locator("input.lm-attn-text").is_disabled() and kernel_row.locator("button.lm-attn-run").is_disabled(), (
        "a new text needs the kernel: with no kernel its box and button must be disabled")
    note = page.locator(".lm-attention-widget .lm-kernel-note").first
    assert note.is_visible() and "needs a running kernel" in note.inner_text(), "the reader must see why"
    assert page.locator(".lm-temperature-widget .lm-kernel-note").count() == 0, "T, k, p and samples need no kernel"
    strip = page.locator(".lm-attention-widget .lm-attn-tokens")
    weights = lambda: strip.locator(".lm-attn-token").evaluate_all("ns => ns.map(n => n.dataset.weight)")  # noqa: E731
    last = strip.locator(".lm-attn-token").count() - 1
    assert strip.get_attribute("data-query") == str(last), "the last token is the first query"
    before = weights()
    strip.locator(".lm-attn-token").nth(5).hover()
    assert strip.get_attribute("data-query") == "5"
    assert weights() != before and all(w == "0.0000" for w in weights()[6:]), "a causal query reads nothing after it"
    strip.focus()
    page.keyboard.press("ArrowRight")
    assert strip.get_attribute("data-query") == "6"
    page.locator(".lm-attention-widget select.lm-attn-head").select_option("-1")
    assert page.locator(".lm-attention-widget .lm-attn-thumb").count() == 4
    heights = lambda: page.locator(".lm-temperature-widget rect.lm-bar").evaluate_all("ns => ns.map(n => n.getAttribute('height'))")  # noqa: E731
    cold = heights()
    page.locator(".lm-temperature-widget input.lm-temperature").focus()
    page.keyboard.press("ArrowRight")
    assert heights() != cold, "T moved the bars with no kernel"
    page.locator(".lm-temperature-widget input.lm-top-k").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator(".lm-temperature-widget rect.lm-kept").count() == 2
    assert "kept tokens: 2 " in page.locator(".lm-temperature-widget .lm-aw-info").inner_text()
    # the mask grid: a new prefix needs the kernel (disabled, with the note); choosing a cell does not
    page.wait_for_selector(".lm-mask-widget .lm-cell", timeout=30_000)
    assert page.locator(".lm-mask-widget input.lm-prefix").is_disabled(), "a new prefix needs the kernel"
    assert page.locator(".lm-mask-widget .lm-kernel-note").first.is_visible()
    picture = lambda: page.locator(".lm-mask-widget .lm-attention").get_attribute("aria-label")  # noqa: E731
    before = picture()
    page.locator(".lm-mask-widget .lm-cell[data-key='masked/masked']").click()
    assert page.locator(".lm-mask-widget .lm-cell.mod-active").get_attribute("data-key") == "masked/masked"
    assert picture() != before, "choosing a cell shows its own map with no kernel"
    page.keyboard.press("ArrowRight")
    assert page.locator(".lm-mask-widget .lm-cell.mod-active").get_attribute("data-key") == "masked/unmasked"
    assert page.locator(".lm-mask-widget .lm-sample").count() == 2, "the saved samples are shown"
    figure = page.locator(".lm-positional-widget .lm-positional-figure")
    assert figure.get_attribute("data-kind") == "rotary" and figure.locator("canvas").count() == 1
    page.locator(".lm-positional-widget select.lm-kind").select_option("sinusoidal")
    page.wait_for_function("() => document.querySelector('.lm-positional-widget .lm-positional-figure').dataset.kind === 'sinusoidal'",
                           timeout=10_000)
    assert "sinusoidal" in figure.get_attribute("aria-label"), "the encoding selector redraws with no kernel"
    base = figure.get_attribute("data-base")
    page.locator(".lm-positional-widget input.lm-base").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(b) => document.querySelector('.lm-positional-widget .lm-positional-figure').dataset.base !== b",
                           arg=base, timeout=10_000)
    dims = page.locator(".lm-positional-widget input.lm-dims")
    dims.fill("2, 3")
    dims.press("Enter")
    page.wait_for_function("() => document.querySelector('.lm-positional-widget .lm-positional-figure')"
                           ".getAttribute('aria-label').includes('dimensions 2, 3')", timeout=10_000)
    assert figure.locator("polyline[data-dim]").evaluate_all("ns => ns.map(n => n.dataset.dim)") == ["2", "3"]
    page.screenshot(path=str(out / "anywidgets.png"), full_page=True)
