"""The mask grid (08) and the positional explorer (06) in real JupyterLab: every interaction changes what the view shows.

Each notebook runs top to bottom in headless Chromium (fast mode; the browser suite's shared JupyterLab); then
a person's clicks and keys are replayed, and the test reads back the picture itself (its title, its heatmap's
pixels, its curves) and compares it with what the kernel's Python computes. Screenshots go to
$LM_SCREENSHOT_DIR (else a tmp folder).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.browser.lab import browser_unavailable_reason, output_problems, screenshot_widget
from tests.browser.mask_positional import (
    MASK,
    POSITIONAL,
    choose_cell,
    kernel_value,
    mask_state,
    new_prefix,
    positional_state,
    read_figure,
    wait_for_samples,
)
from utils.widgets.colors import colormap_table

_REASON = browser_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")

NOTEBOOKS = ("08_masks_copy_failure.ipynb", "06_positional_encodings.ipynb")
MASK_FIGURE = f".{MASK} .lm-attention"
POSITIONAL_FIGURE = f".{POSITIONAL} .lm-positional-figure"
KEYS = ("masked/masked", "masked/unmasked", "unmasked/masked", "unmasked/unmasked")
# the notebook shows the positional widget as a cell's last expression: find it among the live widgets
WIDGET = ("next(w for w in __import__('ipywidgets').widgets.widget._instances.values() "
          "if type(w).__name__ == 'PositionalScoresWidget')")
VIRIDIS = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colormap_table("viridis")])  # (64, 3)


@pytest.fixture(scope="module")
def pages(lab_page):
    """06 and 08 as run in the browser suite's shared JupyterLab (tests/browser/conftest.py)."""
    return {name: lab_page(name) for name in NOTEBOOKS}


def attention_levels(figure: dict) -> np.ndarray:
    """The heatmap's pixels mapped back to attention weights in [0, 1] through the viridis table: (T, T)."""
    pixels = np.array(figure["pixels"], dtype=float)  # (T, T, 3)
    nearest = ((pixels[:, :, None, :] - VIRIDIS[None, None]) ** 2).sum(-1).argmin(-1)  # (T, T)
    return (nearest + 0.5) / len(VIRIDIS)


def test_each_grid_cell_shows_its_own_map_numbers_and_text(pages, screenshot_dir):
    page = pages["08_masks_copy_failure.ipynb"]
    assert output_problems(page) == []
    page.locator(f".{MASK}").first.scroll_into_view_if_needed()
    prefix = kernel_value(page, "widget.prefix")
    wait_for_samples(page, prefix)
    cells = kernel_value(page, "{c['trained'] + '/' + c['evaluated']: widget.cell(c['trained'], c['evaluated']) "
                               "for c in widget.cells}")  # maps, losses and the samples as written
    losses = kernel_value(page, "{f'{t}/{e}': grid[t, e].teacher_forced for t, e in grid}")  # section 5's numbers
    texts = {}
    for key in KEYS:
        choose_cell(page, key)
        page.wait_for_function("([cls, key]) => document.querySelector('.' + cls + ' .lm-samples').dataset.key === key",
                               arg=[MASK, key], timeout=10_000)
        state = mask_state(page)
        assert state["selected"] == key and [c["key"] for c in state["cells"] if c["pressed"] == "true"] == [key]
        assert state["focused"] == key, f"{key}: a click focuses the cell it chose (the arrow keys go on from there)"
        trained, evaluated = key.split("/")
        figure = read_figure(page, MASK_FIGURE)
        words = {"masked": "with the mask", "unmasked": "without the mask"}
        title = f"trained {words[trained]}, run {words[evaluated]}"
        assert figure["label"].startswith(f"attention map, {title}"), f"{key}: the picture is not {title!r}"
        assert state["numbers"].startswith(title), f"{key}: the panel's heading is not {title!r}"
        T = len(cells[key]["tokens"])
        assert figure["width"] == figure["height"] == T
        shown = attention_levels(figure)  # (T, T): what the picture holds
        expected = np.array(cells[key]["attention"])  # (T, T): what the kernel computed for this cell
        assert np.abs(shown - expected).max() <= 1.5 / len(VIRIDIS), f"{key}: the heatmap is not this cell's map"
        if evaluated == "masked":
            assert np.triu(shown, 1).max() < 1.0 / len(VIRIDIS), f"{key}: a masked run shows weight above the diagonal"
        if key == "unmasked/unmasked":
            ahead = np.diagonal(shown, 1).mean()
            assert ahead > 0.5, f"the copier's map should be bright one step ahead, got {ahead:.2f}"
        assert f"{cells[key]['teacher_forced']:.2f}" in state["numbers"]
        assert f"{losses[key]:.2f}" in state["numbers"], "the widget's loss must be section 5's teacher-forced loss"
        assert f"{cells[key]['sample_nll']:.2f}" in state["numbers"]
        assert state["samples"] and state["samples"][0].replace("⏎", "\n") == prefix + cells[key]["samples"][0]
        texts[key] = state["samples"][0]
    assert texts["masked/masked"] != texts["unmasked/unmasked"]
    choose_cell(page, "unmasked/masked")
    screenshot_widget(page, MASK, screenshot_dir / "08_mask_grid.png")
    assert output_problems(page) == []


def test_grid_cells_move_with_the_arrow_keys(pages):
    page = pages["08_masks_copy_failure.ipynb"]
    choose_cell(page, "masked/masked")
    before = read_figure(page, MASK_FIGURE)["texts"]
    for key, expected in (("ArrowRight", "masked/unmasked"), ("ArrowDown", "unmasked/unmasked"),
                          ("ArrowLeft", "unmasked/masked"), ("ArrowUp", "masked/masked")):
        page.keyboard.press(key)
        page.wait_for_function("([cls, key]) => { const b = document.querySelector('.' + cls + ' .lm-cell.mod-active');"
                               " return b && b.dataset.key === key; }", arg=[MASK, expected], timeout=10_000)
        state = mask_state(page)
        assert state["focused"] == expected, f"{key}: the focus should follow the chosen cell"
    assert read_figure(page, MASK_FIGURE)["texts"] == before  # back at the start, the same picture
    assert kernel_value(page, "widget.selected") == "masked/masked", "the choice reaches the kernel too"


def test_a_new_prefix_runs_the_four_models(pages):
    page = pages["08_masks_copy_failure.ipynb"]
    choose_cell(page, "unmasked/unmasked")
    page.evaluate("""(cls) => {  // record what the samples box shows while the kernel writes
      const box = document.querySelector('.' + cls + ' .lm-samples');
      window.__lmWritten = [];
      new MutationObserver(() => window.__lmWritten.push([box.dataset.prefix, Number(box.dataset.written), box.dataset.done]))
        .observe(box, {attributes: true, attributeFilter: ['data-written', 'data-done']});
    }""", MASK)
    new_prefix(page, "def ")
    wait_for_samples(page, "def ")
    seen = [w for p, w, done in page.evaluate("() => window.__lmWritten") if p == "def "]
    length = kernel_value(page, "widget.length")
    assert seen[-1] == length and any(0 < w < length for w in seen) and seen == sorted(seen), (
        f"the samples must grow in the view before they are complete, got {seen}")
    figure = read_figure(page, MASK_FIGURE)
    assert figure["width"] == 4 and {"d", "e", "f", "␣"} <= set(figure["texts"]), "the map's axes are the new prefix"
    cell = kernel_value(page, "widget.cell('unmasked', 'unmasked')")
    assert cell["tokens"] == list("def ") and mask_state(page)["samples"][0] == "def " + cell["samples"][0].replace("\n", "⏎")
    new_prefix(page, "zz\u00e6\u00f0")  # characters the corpus does not have
    page.wait_for_function(f"() => document.querySelector('.{MASK} .lm-status').textContent.includes('not in the vocabulary')",
                           timeout=30_000)
    new_prefix(page, "zzææ")  # the same fault again: the same message must replace "running…" again
    page.wait_for_function(f"() => document.querySelector('.{MASK} .lm-status').textContent.includes('not in the vocabulary')",
                           timeout=30_000)
    assert output_problems(page) == []
    new_prefix(page, "def ")  # leave a prefix the grid can run (the other browser tests share this page)
    page.wait_for_function(f"() => document.querySelector('.{MASK} .lm-status').textContent === ''", timeout=30_000)
    new_prefix(page, "The ")
    wait_for_samples(page, "The ")
    new_prefix(page, "def ")  # seen before, from an ordinary state: the kernel's cache answers, the line must clear
    page.wait_for_function(f"() => document.querySelector('.{MASK} .lm-status').textContent === ''", timeout=30_000)


def test_positional_encoding_selector_and_base_slider_change_the_curves(pages, screenshot_dir):
    page = pages["06_positional_encodings.ipynb"]
    assert output_problems(page) == []
    root = page.locator(f".{POSITIONAL}").first
    root.scroll_into_view_if_needed()
    state = positional_state(page)
    assert state["kind"] == "rotary" and not state["base_disabled"] and state["base_text"] == "10000"
    rotary = read_figure(page, POSITIONAL_FIGURE)
    assert rotary["kind"] == "rotary" and len(rotary["scores"]) == 4
    ys = np.array([[y for _, y in line] for line in rotary["scores"]])  # (4 positions, offsets) in pixels
    assert np.abs(ys - ys[0]).max() <= 1.0, "the four absolute query positions must draw one curve (offset only)"
    assert np.ptp(ys[0]) > 50, "and that curve must change with the offset"
    scores = np.array(kernel_value(page, f"{WIDGET}.data['views']['rotary']['by_base'][4]['scores'][0]"), dtype=float)
    assert np.corrcoef(ys[0], scores)[0, 1] < -0.999, "the drawn curve is the kernel's rotary score (y grows downwards)"
    heat = np.array(kernel_value(page, f"{WIDGET}.data['views']['rotary']['by_base'][4]['heat']"), dtype=float)
    assert (rotary["height"], rotary["width"]) == heat.shape, "one canvas pixel per value: rows are positions"
    lut = kernel_value(page, f"{WIDGET}.data['colormaps'][{WIDGET}.data['views']['rotary'].get('heat_cmap', 'diverging')]")
    rgb = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in lut])  # (colours, 3)
    scale = np.abs(heat).max()
    expected = rgb[np.minimum(len(rgb) - 1, np.floor(np.clip((heat + scale) / (2 * scale), 0, 1) * len(rgb)).astype(int))]
    painted = np.array(rotary["pixels"])  # (positions, dims, 3)
    assert (painted == expected).all(axis=2).mean() > 0.99, "each pixel is its value's colour, in place"
    box = page.evaluate(f"""() => {{
      const f = document.querySelector('{POSITIONAL_FIGURE}'), s = f.querySelector('svg').getBoundingClientRect(),
            c = f.querySelector('canvas').getBoundingClientRect();
      return [(c.left - s.left) / s.width, (c.top - s.top) / s.height, c.width / s.width, c.height / s.height];
    }}""")
    assert np.allclose(box, [72 / 740, 48 / 810, 240 / 740, 270 / 810], atol=0.01), f"the pixels sit in the heatmap's frame: {box}"
    screenshot_widget(page, POSITIONAL, screenshot_dir / "06_positional_rotary.png")
    # the base slider, by keyboard: the rotary curve changes, and still coincides across positions
    page.locator(f"{'.' + POSITIONAL} .lm-base").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.base === '30000'", timeout=10_000)
    slower = read_figure(page, POSITIONAL_FIGURE)
    ys_slower = np.array([[y for _, y in line] for line in slower["scores"]])
    assert np.abs(ys_slower - ys_slower[0]).max() <= 1.0
    assert np.abs(ys_slower[0] - ys[0]).max() > 5, "a new base must change the rotary curve"
    assert positional_state(page)["base_index"] == 5 and kernel_value(page, f"{WIDGET}.base_index") == 5
    for kind in ("sinusoidal", "learned", "relative"):
        root.locator(".lm-kind").select_option(kind)
        page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.kind === '{kind}'", timeout=10_000)
        figure = read_figure(page, POSITIONAL_FIGURE)
        state = positional_state(page)
        assert state["base_disabled"] == (kind in ("learned", "relative")), kind
        assert len(figure["scores"]) == 4, f"{kind}: one score curve per head"
        assert figure["pixels"] is not None and figure["curves"], f"{kind}: heatmap and curves are drawn"
        if kind == "sinusoidal":
            at_30000 = figure
            page.locator(f".{POSITIONAL} .lm-base").first.focus()
            page.keyboard.press("ArrowLeft")
            page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.base === '10000'",
                                   timeout=10_000)
            at_10000 = read_figure(page, POSITIONAL_FIGURE)
            assert at_10000["scores"] != at_30000["scores"] and at_10000["curves"] != at_30000["curves"], (
                "the base changes the sinusoidal encoding and what the trained layer makes of it")
            screenshot_widget(page, POSITIONAL, screenshot_dir / "06_positional_sinusoidal.png")
    dims = root.locator(".lm-dims")
    first_dims = dims.input_value()
    dims.fill("2, 3")
    dims.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').getAttribute('aria-label').includes('dimensions 2, 3')",
                           timeout=10_000)
    dims.fill("two")
    dims.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.{POSITIONAL} .lm-message').innerText.includes('whole numbers')",
                           timeout=10_000)
    assert output_problems(page) == []
    # with bad dimensions typed, another encoding is still drawn (with the last good dimensions), message kept
    root.locator(".lm-kind").select_option("sinusoidal")
    page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.kind === 'sinusoidal'", timeout=10_000)
    assert "dimensions 2, 3" in read_figure(page, POSITIONAL_FIGURE)["label"]
    assert "whole numbers" in positional_state(page)["message"]
    # dimensions the relative bias does not have (it has one column per head): the last good ones stay drawn
    root.locator(".lm-kind").select_option("relative")
    page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.kind === 'relative'", timeout=10_000)
    dims.fill("60, 61")
    dims.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.{POSITIONAL} .lm-message').innerText.includes('choose dimensions')",
                           timeout=10_000)
    page.wait_for_timeout(500)  # the figures of the other settings are redrawn 50 ms after a change: the shown one must stay
    figure = read_figure(page, POSITIONAL_FIGURE)
    assert "dimensions 2, 3" in figure["label"] and len(figure["curves"]) == 2, (
        f"with dimensions past the heatmap's width, the last good curves stay drawn: {figure['label']}, {len(figure['curves'])}")
    # leave the widget as the notebook showed it (the other browser tests share this page)
    dims.fill(first_dims)
    dims.press("Enter")
    root.locator(".lm-kind").select_option("rotary")
    page.wait_for_function(f"() => document.querySelector('{POSITIONAL_FIGURE}').dataset.kind === 'rotary' && "
                           f"document.querySelector('.{POSITIONAL} .lm-message').innerText.trim() === ''", timeout=10_000)
