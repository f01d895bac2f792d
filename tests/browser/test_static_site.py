"""The static site, built for a few notebooks in fast mode and opened from disk in Chromium with
the network cut: figures load, every widget renders its saved state, formulas are typeset, the
anywidget views stay interactive without a kernel (hover a token, move T, k, p), the controls that
need one (a new text) are disabled with a visible note, and no page asks for anything outside the site folder.

One build serves the default tier: three harness notebooks (small models) and the real pages of two of
the course's required widgets (05, 09), executed in fast mode. The real pages of the other two (06, 08) are
built and checked under `pytest -m slow` (each build runs its whole notebook once more; 06 alone takes about a
minute of CI), as is the page of 02; 01's page is in the default tier. On the real pages of 06, 08 and 09 the
widget must show the state saved in the page (read back from the page's widget-state JSON) and redraw from it
with no kernel: the encoding selector and the base slider (06), a click on another grid cell (08), T,
top-k and top-p (09).
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote

import nbformat
import numpy as np
import pytest
import torch

from tests.browser.demo_notebooks import (
    DEMO_WIDGET_CLASS,
    write_anywidget_notebook,
    write_demo_notebook,
    write_figure_notebook,
)
from tests.browser.lab import (
    NOTEBOOKS_DIR,
    REQUIRED_WIDGETS,
    WIDGET_NOTEBOOKS,
    browser_unavailable_reason,
    offline_context,
    screenshot_widget,
    temperature_bars,
)
from tests.browser.mask_positional import MASK, POSITIONAL, choose_cell, mask_state, positional_state, read_figure
from tests.browser.test_mask_positional_widgets import KEYS, MASK_FIGURE, POSITIONAL_FIGURE, VIRIDIS, attention_levels
from utils.site import build_site
from utils.site.__main__ import main as site_main
from utils.widgets.temperature import temperature_view

_REASON = browser_unavailable_reason()
POSITIONAL_PAGE, MASK_PAGE, TEMPERATURE_PAGE = "06_positional_encodings.ipynb", "08_masks_copy_failure.ipynb", "09_decoding.ipynb"


SLOW_PAGES = (POSITIONAL_PAGE, MASK_PAGE)  # real pages built and checked under -m slow (module docstring)


def _real_widget_notebooks(slow: bool = False) -> list[str]:
    """The course notebooks in the repository that hold a required widget, to build for real: 05 and 09, or with
    `slow` 06 and 08."""
    return [name for name in WIDGET_NOTEBOOKS if (NOTEBOOKS_DIR / name).is_file()
            and any(c in REQUIRED_WIDGETS for c in WIDGET_NOTEBOOKS[name]) and (name in SLOW_PAGES) == slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One site, one build: the demo widget, figure and anywidget notebooks and the real required-widget notebooks."""
    source = tmp_path_factory.mktemp("site-src")
    notebooks = [write_demo_notebook(source, "01_demo_widget.ipynb"), write_figure_notebook(source, "02_figure.ipynb"),
                 write_anywidget_notebook(source, "03_anywidgets.ipynb")]
    real = _real_widget_notebooks()
    notebooks += [Path(shutil.copy2(NOTEBOOKS_DIR / name, source / name)) for name in real]
    out = tmp_path_factory.mktemp("site")
    lessons = build_site(out, notebooks, fast=True, timeout_s=300, log=lambda message: None)
    return out, lessons, real


@pytest.fixture(scope="module")
def slow_site(tmp_path_factory):
    """The real pages of SLOW_PAGES (06, 08), one build, for the slow tier."""
    source, out = tmp_path_factory.mktemp("slow-site-src"), tmp_path_factory.mktemp("slow-site")
    real = _real_widget_notebooks(slow=True)
    notebooks = [Path(shutil.copy2(NOTEBOOKS_DIR / name, source / name)) for name in real]
    if not notebooks:
        pytest.skip("neither notebook of SLOW_PAGES is in the repository")
    lessons = build_site(out, notebooks, fast=True, timeout_s=300, log=lambda message: None)
    return out, lessons, real


def _wait_for_widgets(page) -> None:
    """Wait until every saved widget view of the open page is rendered and MathJax has typeset it."""
    page.wait_for_function(
        "() => document.querySelectorAll('.widget-subarea').length >= "
        "document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]').length",
        timeout=30_000,
    )
    page.wait_for_function("() => !window.MathJax || !window.MathJax.startup || window.MathJax.startup.promise", timeout=30_000)
    page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")


def _in_site(out: Path):
    """A request filter: True for URLs inside the site folder `out` (and data:/blob:, which never leave the page)."""
    folder = out.resolve().as_uri() + "/"
    return lambda url: url.startswith((folder, "data:", "blob:"))


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
    for name in real:
        if not (NOTEBOOKS_DIR.parent / "lessons" / Path(name).with_suffix(".md").name).is_file():
            continue
        lesson = next(lesson for lesson in lessons if lesson.notebook.name == name)
        plan = (out / lesson.lesson_page).read_text()
        assert f'href="{lesson.page}' in plan and ".ipynb#" not in plan, f"{lesson.lesson_page} does not link the built page"
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
    in_site = _in_site(out)
    real_pages = {Path(name).with_suffix(".html").name for name in real}
    # A fresh context of the browser suite's Chromium (one Playwright per process: tests/browser/conftest.py).
    with contextlib.closing(offline_context(browser.browser)) as context:
        context.on("request", lambda r: None if in_site(r.url) else outside_requests.append(r.url))
        context.on("requestfailed", lambda r: failed.append(r.url))
        page = context.new_page()
        page.goto((out / "index.html").as_uri())
        links = page.eval_on_selector_all("ol.lm-lessons li > a", "links => links.map(a => a.getAttribute('href'))")
        assert links == [lesson.page for lesson in lessons]
        states = {}
        for lesson in lessons:
            page.goto((out / lesson.page).as_uri(), wait_until="load")
            _wait_for_widgets(page)
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
            if lesson.page in real_pages:
                if lesson.notebook.name == real[0]:  # one whole page (the widgets of 06, 08 (slow), 09: their own tests)
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
    assert outside_requests == [], f"pages asked for files outside the site folder or the network: {outside_requests}"
    assert failed == [], f"files missing from the site: {failed}"
    for name, state in states.items():
        assert not state["broken"], f"{name}: a widget failed to render: {state}"
        assert state["images_loaded"] == state["images"], f"{name}: some figures did not load: {state}"
        assert state["widgets_rendered"] >= state["widget_views"], f"{name}: not every widget rendered: {state}"
    assert states["01_demo_widget.html"]["widget_views"] == 1
    assert states["01_demo_widget.html"]["images"] >= 1
    assert states["02_figure.html"]["images"] == 1 and states["02_figure.html"]["formulas"] >= 1
    assert states["03_anywidgets.html"]["widget_views"] == 4
    for name in real_pages:
        assert states[name]["widget_views"] >= 1 and states[name]["images"] >= 1, (name, states[name])


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


# ----------------------------------------------------------------------------- the real pages of 06, 08 and 09
# Each page is opened from disk in a fresh offline context; what its widget shows is compared with the widget's
# state as saved in the page (the build's NotebookClient ran it with store_widget_state), not with a kernel.

_WIDGET_STATE = re.compile(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', flags=re.S)


def saved_widget_state(page_path: Path, anywidget_id: str) -> dict:
    """The state saved in a built page of its one anywidget model of class `anywidget_id` (module.Class)."""
    blocks = _WIDGET_STATE.findall(page_path.read_text(encoding="utf-8"))
    states = [model["state"] for block in blocks for model in json.loads(block)["state"].values()
              if model["state"].get("_anywidget_id") == anywidget_id]
    assert len(states) == 1, f"{page_path.name}: {len(states)} saved {anywidget_id} models (the build must keep the widget state)"
    return states[0]


def _real_page(site, notebook: str) -> tuple[Path, str]:
    """(site folder, page name) of a real notebook's page (skips when the notebook is not in the repository)."""
    out, _, real = site
    if notebook not in real:
        pytest.skip(f"notebooks/{notebook} is not in the repository")
    return out, Path(notebook).with_suffix(".html").name


@contextlib.contextmanager
def site_page(browser, out: Path, name: str, widget_class: str):
    """Page `name` of the site `out`, opened from disk with the network cut and its widgets drawn. On leaving, the page
    must have asked for nothing outside the site folder, missed no file and raised no script error."""
    outside, failed, errors = [], [], []
    in_site = _in_site(out)
    with contextlib.closing(offline_context(browser.browser, viewport=(1400, 1200))) as context:
        context.on("request", lambda r: None if in_site(r.url) else outside.append(r.url))
        context.on("requestfailed", lambda r: failed.append(r.url))
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((out / name).as_uri(), wait_until="load")
        _wait_for_widgets(page)
        page.wait_for_selector(f".{widget_class} .lm-figure:visible", timeout=30_000)  # the site view, where it replaces the kernel figure
        page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
        yield page
    assert outside == [], f"{name} asked for files outside the site folder or the network: {outside}"
    assert failed == [], f"{name}: files missing from the site: {failed}"
    assert errors == [], f"{name}: script errors: {errors}"


def _wait_until(page, predicate: str, arg, failure: str, timeout_ms: int = 10_000) -> None:
    """Wait until the JS `predicate(arg)` holds in the page; if it never does, fail saying `failure`."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(predicate, arg=arg, timeout=timeout_ms)
    except PlaywrightTimeout:
        pytest.fail(f"{failure} (waited {timeout_ms / 1000:.0f} s)")


def _scores_follow(figure: dict, scores: list) -> bool:
    """True when the figure's score curves are `scores` (curves, offsets; None where undefined) as drawn: a point for
    each defined value, in a line with it, y down the page."""
    if len(figure["scores"]) != len(scores):
        return False
    for line, row in zip(figure["scores"], scores):
        ys = np.array([y for _, y in line])  # (points,) pixels
        values = np.array([v for v in row if v is not None], dtype=float)  # (points,)
        if len(ys) != len(values):
            return False
        if np.ptp(values) == 0 or np.ptp(ys) == 0:
            if np.ptp(values) != 0 or np.ptp(ys) > 1:
                return False
        elif np.corrcoef(ys, values)[0, 1] > -0.999:
            return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_real_positional_page_redraws_the_saved_encodings_offline(slow_site, browser, screenshot_dir):
    out, name = _real_page(slow_site, POSITIONAL_PAGE)
    saved = saved_widget_state(out / name, "utils.widgets.positional.PositionalScoresWidget")
    data = saved["data"]
    with site_page(browser, out, name, POSITIONAL) as page:
        state = positional_state(page)
        assert (state["kind"], state["base_index"], state["dims"]) == (saved["kind"], saved["base_index"], saved["dims"]), (
            f"the view does not show the saved settings: {state}")
        assert float(state["base_text"]) == data["bases"][saved["base_index"]]
        assert page.locator(f".{POSITIONAL} .lm-kernel-note").count() == 0, "the explorer needs no kernel"

        def shown(kind: str, base_index: int) -> dict:
            """What the figure shows, checked against the saved data of `kind` at `base_index`."""
            figure = read_figure(page, POSITIONAL_FIGURE)
            view = data["views"][kind]
            view = {**view, **view["by_base"][base_index]} if "by_base" in view else view
            assert figure["kind"] == kind, f"the figure shows {figure['kind']}, not {kind}"
            if "by_base" in data["views"][kind]:  # the other encodings use no base
                assert float(figure["base"]) == data["bases"][base_index], f"{kind} at base {figure['base']}, not {data['bases'][base_index]}"
            heat = np.array(view["heat"], dtype=float)  # (rows, columns)
            assert (figure["height"], figure["width"]) == heat.shape, f"{kind}: the heatmap is not the saved one"
            assert _scores_follow(figure, view["scores"]), f"{kind}, base {data['bases'][base_index]}: the curves are not the saved scores"
            dims = [d for d in map(int, saved["dims"].split(",")) if d < heat.shape[1]]
            assert page.locator(f"{POSITIONAL_FIGURE} polyline[data-dim]").evaluate_all("ns => ns.map(n => +n.dataset.dim)") == dims, (
                f"{kind}: one curve per saved dimension the heatmap has")
            return figure

        first = shown(saved["kind"], saved["base_index"])
        # the base slider, by keyboard: one step up the saved grid of bases
        assert saved["base_index"] + 1 < len(data["bases"])
        page.locator(f".{POSITIONAL} input.lm-base").focus()
        page.keyboard.press("ArrowRight")
        _wait_until(page, "([s, b]) => document.querySelector(s).dataset.base !== b", [POSITIONAL_FIGURE, first["base"]],
                    f"the base slider did not redraw the figure: it still shows base {first['base']}")
        moved = shown(saved["kind"], saved["base_index"] + 1)
        assert moved["scores"] != first["scores"], "a new base must redraw the curves"
        # the encoding selector: every other encoding, from the saved data
        for kind in (k for k in data["kinds"] if k != saved["kind"]):
            page.locator(f".{POSITIONAL} select.lm-kind").select_option(kind)
            _wait_until(page, "([s, k]) => document.querySelector(s).dataset.kind === k", [POSITIONAL_FIGURE, kind],
                        f"choosing {kind} in the encoding selector did not redraw the figure")
            figure = shown(kind, saved["base_index"] + 1)
            assert positional_state(page)["base_disabled"] == ("by_base" not in data["views"][kind]), kind
            assert figure["pixels"] != first["pixels"], f"{kind}: the heatmap was not redrawn"
        screenshot_widget(page, POSITIONAL, screenshot_dir / "site_06_positional.png")


@pytest.mark.slow
@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_real_mask_page_shows_each_saved_cell_offline(slow_site, browser, screenshot_dir):
    out, name = _real_page(slow_site, MASK_PAGE)
    saved = saved_widget_state(out / name, "utils.widgets.mask.MaskGridWidget")
    texts = saved["texts"]
    assert texts.get("done") and texts.get("prefix") == saved["prefix"], (
        f"the page must keep the finished samples of the saved prefix {saved['prefix']!r}: {str(texts)[:200]}")
    cells = {f"{c['trained']}/{c['evaluated']}": {**c, **texts["cells"][f"{c['trained']}/{c['evaluated']}"]} for c in saved["cells"]}
    assert sorted(cells) == sorted(KEYS)
    # another row and another column than the saved choice: another map, other losses and other samples
    other = next(k for k in KEYS if all(a != b for a, b in zip(k.split("/"), saved["selected"].split("/"))))
    words = {"masked": "with the mask", "unmasked": "without the mask"}
    with site_page(browser, out, name, MASK) as page:

        def shown(key: str) -> list[str]:
            """What the page shows for the chosen cell `key`, checked against its saved map, losses and samples."""
            state = mask_state(page)
            assert state["selected"] == key and state["samples_key"] == key, f"{key} is not the chosen cell: {state['selected']}"
            cell, (trained, evaluated) = cells[key], key.split("/")
            title = f"trained {words[trained]}, run {words[evaluated]}"
            figure = read_figure(page, MASK_FIGURE)
            assert figure["label"].startswith(f"attention map, {title}"), f"{key}: the map shows {figure['label']!r}"
            assert state["numbers"].startswith(title), f"{key}: the numbers are headed {state['numbers'][:60]!r}"
            assert figure["width"] == figure["height"] == len(cell["tokens"])
            assert np.abs(attention_levels(figure) - np.array(cell["attention"])).max() <= 1.5 / len(VIRIDIS), (
                f"{key}: the map is not the saved map")
            for number in (cell["teacher_forced"], cell["sample_nll"]):
                assert f"{number:.2f}" in state["numbers"], f"{key}: the saved loss {number:.2f} is not shown: {state['numbers']!r}"
            expected = [(saved["prefix"] + s).replace("\n", "⏎") for s in cell["samples"][: saved["shown_samples"]]]
            assert state["samples"] == expected, f"{key}: the samples shown are not the saved ones"
            return state["samples"]

        state = mask_state(page)
        for cell in state["cells"]:  # every button: its saved losses
            assert cell["numbers"] == [f"{cells[cell['key']]['teacher_forced']:.2f}", f"{cells[cell['key']]['sample_nll']:.2f}"], cell
        before = shown(saved["selected"])
        choose_cell(page, other)
        _wait_until(page, "([cls, key]) => document.querySelector('.' + cls + ' .lm-samples').dataset.key === key", [MASK, other],
                    f"a click on the cell {other} did not show that cell")
        assert shown(other) != before
        # a new prefix needs the kernel: the box is disabled and says so
        box = page.locator(f".{MASK} input.lm-prefix").first
        assert box.is_disabled() and box.input_value() == saved["prefix"], "with no kernel the prefix box is disabled"
        note = page.locator(f".{MASK} .lm-kernel-note").first
        assert note.is_visible() and "needs a running kernel" in note.inner_text(), "the reader must see why"
        assert page.locator(f".{MASK} .lm-kernel-note").count() == 1, "only the prefix needs the kernel"
        screenshot_widget(page, MASK, screenshot_dir / "site_08_mask_grid.png")


@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_real_temperature_page_recomputes_the_bars_offline(site, browser, screenshot_dir):
    out, name = _real_page(site, TEMPERATURE_PAGE)
    saved = saved_widget_state(out / name, "utils.widgets.temperature.TemperatureWidget")
    logits = torch.tensor(saved["logits"])  # (V,)
    with site_page(browser, out, name, "lm-temperature-widget") as page:
        root = page.locator(".lm-temperature-widget").first
        assert root.locator(".lm-kernel-note").count() == 0, "T, k, p and samples need no kernel"
        t_slider, k_slider, p_slider = (root.locator(f"input.{c}") for c in ("lm-temperature", "lm-top-k", "lm-top-p"))

        def shown() -> tuple[list[dict], object]:
            """The bars and the Python view (utils.widgets.temperature on the saved logits at the sliders' T, k and p),
            checked equal."""
            temperature, k, p = 10 ** float(t_slider.input_value()), int(k_slider.input_value()), float(p_slider.input_value())
            view = temperature_view(logits, temperature, k or None, p if p < 1 else None, n_bars=saved["n_bars"])
            bars = temperature_bars(page)
            settings = f"T = {temperature:.3f}, k = {k}, p = {p:.2f}"
            assert [b["token"] for b in bars] == view.order.tolist(), "the bars are the saved logits' likeliest tokens"
            gaps = [float(np.abs(np.array([b[key] for b in bars]) - expected).max())
                    for key, expected in (("prob", view.probs), ("tempered", view.tempered))]
            assert max(gaps) < 1e-5, (f"at {settings} the bars are not next_token_probs of the saved logits "
                                      f"(largest gaps: sampling {gaps[0]:.3g}, tempered {gaps[1]:.3g})")
            assert [not b["cut"] for b in bars] == view.kept.tolist(), f"at {settings} other tokens are greyed"
            assert f"kept tokens: {view.n_kept} of {len(logits)} " in root.locator(".lm-aw-info").inner_text()
            return bars, view

        start, _ = shown()
        assert (10 ** float(t_slider.input_value()), int(k_slider.input_value()), float(p_slider.input_value())) == pytest.approx(
            (saved["temperature"], saved["top_k"], saved["top_p"])), "the sliders show the saved T, k and p"
        samples = lambda: root.locator("code.lm-samples").get_attribute("data-ids")  # noqa: E731
        saved_samples = samples()
        t_slider.focus()
        for _ in range(6):
            page.keyboard.press("ArrowRight")  # T about twice as hot
        hot, _ = shown()
        assert [b["height"] for b in hot] != [b["height"] for b in start], "T redraws the bars"
        assert samples() != saved_samples, "and draws new samples"
        k_slider.focus()
        page.keyboard.press("Home")
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert k_slider.input_value() == "3" and sum(not b["cut"] for b in shown()[0]) == 3
        kept = {b["token"] for b in temperature_bars(page) if not b["cut"]}
        assert {int(i) for i in samples().split(",")} <= kept, "samples come from the three kept tokens only"
        page.keyboard.press("Home")  # k off
        p_slider.focus()
        page.keyboard.press("End")
        for _ in range(50):
            page.keyboard.press("ArrowLeft")  # p from 1 to 0.5
        assert abs(float(p_slider.input_value()) - 0.5) < 1e-9
        _, nucleus = shown()
        assert 0 < nucleus.n_kept < len(logits), "top-p = 0.5 cuts the tail"
        screenshot_widget(page, "lm-temperature-widget", screenshot_dir / "site_09_temperature.png")


@pytest.mark.parametrize("built", ["site", pytest.param("slow_site", marks=pytest.mark.slow)])
def test_no_built_file_holds_a_solution_or_hidden_test(built, request):
    """The pages, the downloadable notebooks and the search index come from the student edition (issue 32)."""
    from tests.test_site_student_pages import answer_leaks

    out, lessons, real = request.getfixturevalue(built)
    assert real, "no real course notebook was built"
    files = [p for p in out.rglob("*") if p.suffix in {".html", ".ipynb"} or p.name == "search-index.js"]
    assert (out / "assets" / "search-index.js") in files
    markers = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
    assert not {str(p.relative_to(out)): m for p in files for m in markers if m in p.read_text(encoding="utf-8")}
    for name in real:  # a notebook's own answers, in its page, its download and the search index (a later
        # notebook may teach, in the open, what an earlier one asked as an exercise: 08 builds 05's causal mask)
        source = nbformat.read(NOTEBOOKS_DIR / name, as_version=4)
        own = [out / Path(name).with_suffix(".html").name, out / "notebooks" / name, out / "assets" / "search-index.js"]
        leaks = {str(p.relative_to(out)): found for p in own if (found := answer_leaks(p.read_text(encoding="utf-8"), source))}
        assert not leaks, f"answers of {name} in the built site: {leaks}"


@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_search_and_lesson_list_lead_to_the_pages(site, browser):
    out, lessons, real = site
    page = browser.new_page()
    try:
        page.goto((out / "index.html").resolve().as_uri())
        page.fill(".lm-search input", "figure formula")
        page.wait_for_function("() => Number(document.querySelector('.lm-search-results').dataset.hits) > 0")
        links = page.eval_on_selector_all(".lm-search-results a", "nodes => nodes.map(n => n.getAttribute('href'))")
        assert "02_figure.html" in links, links
        page.goto((out / lessons[0].page).resolve().as_uri())
        listed = page.eval_on_selector_all(".lm-toc a", "nodes => nodes.map(n => n.getAttribute('href'))")
        assert listed == [lesson.page for lesson in lessons[1:]], "the lesson list must name every other page"
        page.fill(".lm-search input", "zzzz-no-such-word")
        page.wait_for_function("() => document.querySelector('.lm-search-results').dataset.hits === '0'")
    finally:
        page.close()


AUTOREGRESSION_PAGE = "01_autoregression.ipynb"


def one_page_site(tmp_path_factory, page: str) -> tuple[Path, str]:
    """(the site folder, the page's file name) of the real notebook `page` alone, built in fast mode (skips when the
    notebook is not in the repository)."""
    if not (NOTEBOOKS_DIR / page).is_file():
        pytest.skip(f"notebooks/{page} is not in the repository")
    source, out = tmp_path_factory.mktemp(f"site{page[:2]}-src"), tmp_path_factory.mktemp(f"site{page[:2]}")
    notebook = Path(shutil.copy2(NOTEBOOKS_DIR / page, source / page))
    build_site(out, [notebook], fast=True, timeout_s=300, log=lambda message: None)
    return out, Path(page).with_suffix(".html").name


@pytest.fixture(scope="module")
def autoregression_site(tmp_path_factory):
    """The real page of notebook 01 alone."""
    return one_page_site(tmp_path_factory, AUTOREGRESSION_PAGE)


@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_real_autoregression_page_switches_models_from_the_precomputed_bits(autoregression_site, browser, screenshot_dir):
    out, name = autoregression_site
    payload = saved_widget_state(out / name, "utils.widgets.surprisal_view.SurprisalView")["payload"]
    assert len(payload["models"]) >= 2, "the page must offer at least two models to switch between"
    with site_page(browser, out, name, "lm-autoregression-widget") as page:
        root = page.locator(".lm-autoregression-widget").first
        picker = root.locator("select").first
        assert picker.is_enabled() and picker.get_attribute("data-lm-static") is None, "the model picker is live"
        text_box = root.locator(".lm-needs-kernel input").first
        assert text_box.is_disabled() and root.locator(".lm-kernel-note").count() >= 1, "a new text needs the kernel, noted"
        dead = page.evaluate("""() => Array.from(document.querySelectorAll('[data-lm-static="off"]'))
            .filter(el => !(el.parentElement && el.parentElement.querySelector('.lm-kernel-note'))).length""")
        assert dead == 0, "every disabled control has the note beside it"
        assert not root.locator("img.lm-kernel-figure, .lm-kernel-figure").first.is_visible(), "the kernel figure is hidden"

        def bars() -> tuple[str, list[float]]:
            svg = root.locator("svg.lm-surprisal-svg")
            return svg.get_attribute("data-model"), [float(b) for b in svg.locator("rect.lm-surprisal-bar").evaluate_all(
                "rects => rects.map(r => r.getAttribute('data-bits'))")]

        seen = []
        for index, model in enumerate(payload["models"]):
            picker.select_option(index=index)
            page.wait_for_function(f"() => document.querySelector('svg.lm-surprisal-svg').dataset.model === {json.dumps(model)}",
                                   timeout=10_000)
            shown_model, heights = bars()
            assert shown_model == model
            assert heights == pytest.approx(payload["scores"][model], abs=1e-4), f"{model}: the bars are not its saved bits"
            mean = sum(payload["scores"][model]) / len(heights)
            assert f"bits/token · perplexity {2 ** mean:.1f}" in root.locator(".lm-surprisal-summary").inner_text()
            seen.append(heights)
        assert any(h != seen[0] for h in seen[1:]), "switching the model changes the bars"
        screenshot_widget(page, "lm-autoregression-widget", screenshot_dir / "site_01_autoregression.png")


NGRAM_PAGE = "02_ngram_models.ipynb"


@pytest.fixture(scope="module")
def ngram_site(tmp_path_factory):
    """The real page of notebook 02 alone."""
    return one_page_site(tmp_path_factory, NGRAM_PAGE)


@pytest.mark.slow
@pytest.mark.skipif(_REASON is not None, reason=_REASON or "")
def test_real_ngram_page_moves_n_over_the_precomputed_orders(ngram_site, browser, screenshot_dir):
    out, name = ngram_site
    state = saved_widget_state(out / name, "utils.widgets.next_symbol_view.NextSymbolView")
    payload, start = state["payload"], state["n"]
    assert len(payload["orders"]) >= 2, "the page must hold at least two orders to move between"
    with site_page(browser, out, name, "lm-ngram-widget") as page:
        root = page.locator(".lm-ngram-widget").first
        prefix_box = root.locator(".lm-needs-kernel input").first
        assert prefix_box.is_disabled() and root.locator(".lm-kernel-note").count() >= 1, "a new prefix needs the kernel, noted"
        dead = page.evaluate("""() => Array.from(document.querySelectorAll('[data-lm-static="off"]'))
            .filter(el => !(el.parentElement && el.parentElement.querySelector('.lm-kernel-note'))).length""")
        assert dead == 0, "every disabled control has the note beside it"
        assert not root.locator(".lm-kernel-figure").first.is_visible(), "the kernel figure is hidden"

        def bars() -> tuple[int, list[float]]:
            svg = root.locator("svg.lm-next-symbol-svg")
            return int(svg.get_attribute("data-n")), [float(p) for p in svg.locator("rect.lm-next-symbol-bar").evaluate_all(
                "rects => rects.map(r => r.getAttribute('data-p'))")]

        shown_n, heights = bars()
        assert shown_n == start and heights == pytest.approx(payload["orders"][str(start)]["probs"], abs=1e-5)
        step = "ArrowRight" if str(start + 1) in payload["orders"] else "ArrowLeft"
        want = start + 1 if step == "ArrowRight" else start - 1
        handle = root.locator("[role=slider]").first
        handle.focus()
        handle.press(step)
        page.wait_for_function(f"() => document.querySelector('svg.lm-next-symbol-svg').dataset.n === '{want}'",
                               timeout=10_000)
        moved_n, moved = bars()
        assert moved_n == want and moved == pytest.approx(payload["orders"][str(want)]["probs"], abs=1e-5)
        assert moved != heights, "another n shows other bars"
        screenshot_widget(page, "lm-ngram-widget", screenshot_dir / "site_02_ngram.png")
