"""Notebook 07's attention head view (cell `attention_view`) in real JupyterLab, driven by headless Chromium.

07 runs top to bottom (fast mode, in the browser suite's shared JupyterLab); then a person's hover, arrow keys, selector changes and clicks
are replayed on its head view, and what the page shows (the tokens' shading, the map's pixels, the
thumbnails) is compared with what the kernel computes from the notebook's own models: `lm` (trained)
and `lm_initial` (its untrained twin), through `forward_with_attention` on the widget's text.
Screenshots go to $LM_SCREENSHOT_DIR (else a tmp folder), as in the other browser tests.
"""

from __future__ import annotations

import pytest

from tests.browser.lab import (
    browser_unavailable_reason,
    css_rgb,
    kernel_eval,
    kernel_json,
    output_problems,
    screenshot_widget,
    wait_for_kernel_value,
)

_REASON = browser_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")

NOTEBOOK = "07_transformer_lm.ipynb"
CELL_ID = "attention_view"
WIDGET = ".lm-attention-widget"
QUANTUM = 1 / 510 + 1e-4  # the widget ships weights as round(255 w): at most 1/510 off
COLOUR_TOLERANCE = 6  # 0-255 units between the page's viridis (17 stops) and matplotlib's

# Defined once in the kernel: the reference the page is held to. It runs the notebook's models
# itself (not the widget's cache) on the widget's text, cut as the widget cuts it (its last 48 tokens).
_KERNEL_REFERENCE = """
import torch as _lm_torch
def _lm_reference_maps(variant, layer):
    model = [lm, lm_initial][variant]
    ids = dataset.tokenizer.encode(lm_view.text)[-48:]
    was_training = model.training
    model.eval()
    with _lm_torch.no_grad():
        _, per_layer = model.forward_with_attention(_lm_torch.tensor([ids], device=model.device))  # [(1, H, T, T)]
    model.train(was_training)
    return per_layer[layer][0].float().cpu()  # (H, T, T)
def _lm_reference_row(variant, layer, head, query):
    maps = _lm_reference_maps(variant, layer)  # (H, T, T)
    return (maps[:, query].mean(0) if head < 0 else maps[head, query]).tolist()  # (T,)
def _lm_reference_map(variant, layer, head):
    return _lm_reference_maps(variant, layer)[head].tolist()  # (T, T)
"""


@pytest.fixture(scope="module")
def page(lab_page):
    """07 as run in the browser suite's shared JupyterLab (tests/browser/conftest.py); the kernel holds the reference functions."""
    opened = lab_page(NOTEBOOK)
    kernel_eval(opened, _KERNEL_REFERENCE)
    opened.bring_to_front()
    opened.locator(WIDGET).first.scroll_into_view_if_needed()
    return opened


# ----------------------------------------------------------------------------- reading the page

def _viridis(w: float) -> tuple[int, int, int]:
    """matplotlib's viridis at w, as 0-255 integers (the reference for the page's colours)."""
    from matplotlib import colormaps

    return tuple(int(round(255 * c)) for c in colormaps["viridis"](float(w))[:3])


def _tokens(page) -> list[dict]:
    """Each token of the strip: its shipped weight, its shading, greyed (after the query) or the query."""
    return page.eval_on_selector_all(
        f"{WIDGET} .lm-attn-token",
        "nodes => nodes.map(n => ({weight: parseFloat(n.dataset.weight), background: getComputedStyle(n).backgroundColor,"
        " future: n.classList.contains('lm-future'), query: n.classList.contains('lm-query')}))")


_CELL_PIXELS_JS = """canvas => {
  // The colour at the centre of each (query i, key j) cell of a T x T map drawn on `canvas`.
  const T = parseInt(canvas.dataset.lmT, 10), s = canvas.width / T;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const out = [];
  for (let i = 0; i < T; i++) { const row = [];
    for (let j = 0; j < T; j++) {
      const o = 4 * (Math.floor((i + 0.5) * s) * canvas.width + Math.floor((j + 0.5) * s));
      row.push([data[o], data[o + 1], data[o + 2]]);
    }
    out.push(row); }
  return out;
}"""


def _map_pixels(canvas, T: int) -> list[list[list[int]]]:
    """(T, T, 3) colours of a drawn map, read back from the canvas's own pixels."""
    canvas.evaluate("(c, T) => { c.dataset.lmT = String(T); }", T)
    return canvas.evaluate(_CELL_PIXELS_JS)


def _map_mismatches(pixels, expected, query: int) -> list[str]:
    """Cells whose colour is not viridis(expected weight), leaving out the outlined query row and its neighbours."""
    bad = []
    for i, (row, weights) in enumerate(zip(pixels, expected)):
        if abs(i - query) <= 1:
            continue
        for j, (colour, w) in enumerate(zip(row, weights)):
            if max(abs(a - b) for a, b in zip(colour, _viridis(w))) > COLOUR_TOLERANCE:
                bad.append(f"({i}, {j}): page {colour}, viridis({w:.3f}) = {_viridis(w)}")
    return bad


def _choose(page, variant: int, layer: int, head: int) -> None:
    """Pick the weights, layer and head as a person does (a toggle button, two drop-downs); wait for the kernel."""
    root = page.locator(WIDGET).first
    root.locator(f"button[data-variant='{variant}']").click()
    root.locator("select.lm-attn-layer").select_option(str(layer))
    root.locator("select.lm-attn-head").select_option(str(head))
    state = [variant, layer, head]
    assert wait_for_kernel_value(page, "[lm_view.variant, lm_view.layer, lm_view.head]", state) == state


def _check_strip_is_row(page, variant: int, layer: int, head: int, query: int) -> list[float]:
    """The strip shows query `query` and every token shaded by the kernel's row of weights; returns the page's weights."""
    expected = kernel_json(page, f"_lm_reference_row({variant}, {layer}, {head}, {query})")  # (T,) from the model
    shown = _tokens(page)
    assert len(shown) == len(expected)
    assert [t["query"] for t in shown].index(True) == query, "the outlined token is not the query"
    for j, (token, weight) in enumerate(zip(shown, expected)):
        if j > query:
            assert token["future"] and weight < 1e-6, f"token {j} lies after query {query}: greyed, weight 0"
            continue
        assert not token["future"], f"token {j} is not after query {query} but is greyed"
        assert abs(token["weight"] - weight) <= QUANTUM, f"token {j}: page {token['weight']}, model {weight}"
        assert max(abs(a - b) for a, b in zip(css_rgb(token["background"]), _viridis(weight))) <= COLOUR_TOLERANCE, (
            f"token {j} is shaded {token['background']}, viridis({weight:.3f}) is {_viridis(weight)}")
    return [t["weight"] for t in shown]


# ----------------------------------------------------------------------------- the checks

def test_head_view_renders_in_its_cell_without_broken_output(page):
    """(a) The head view is drawn in cell attention_view: no broken output, every token, every layer and head."""
    assert output_problems(page) == [], f"{NOTEBOOK}: broken outputs"
    assert page.locator(WIDGET).count() == 1, "07 shows one attention head view"
    in_cell = page.evaluate("""([id, cls]) => {
      const cell = window.jupyterapp.shell.currentWidget.content.widgets.find(c => c.model.id === id);
      return !!cell && !!cell.node.querySelector(cls + ' .lm-attn-tokens.lm-figure');
    }""", [CELL_ID, WIDGET])
    assert in_cell, f"the head view is not in the output of cell {CELL_ID}"
    root = page.locator(WIDGET).first
    labels = kernel_json(page, "lm_view.tokens")
    n_layer, n_head = kernel_json(page, "[lm_config.n_layer, lm_config.n_head]")
    assert len(labels) == 48 and root.locator(".lm-attn-token").all_inner_texts() == labels
    assert kernel_json(page, "lm_view.shape") == [2, n_layer, n_head, 48], "trained and untrained maps shipped"
    assert root.locator("select.lm-attn-layer option").count() == n_layer
    assert root.locator("select.lm-attn-head option").count() == n_head + 1, "every head, and 'all heads'"
    assert root.locator("button[data-variant]").all_inner_texts() == ["trained weights", "untrained weights"]
    assert root.locator("canvas.lm-attn-big").count() == 1
    assert root.locator(".lm-aw-message").inner_text() == ""


def test_hover_and_arrow_keys_shade_the_models_row(page, screenshot_dir):
    """(b) Pointing at a query token (or the arrow keys) shades the tokens by that query's row of the model's attention."""
    root = page.locator(WIDGET).first
    n_layer, n_head = kernel_json(page, "[lm_config.n_layer, lm_config.n_head]")
    layer, head = n_layer - 1, n_head - 1  # not the defaults: the selectors must reach the shading
    _choose(page, 0, layer, head)
    strip = root.locator(".lm-attn-tokens").first
    tokens = root.locator(".lm-attn-token")
    seen = {}
    for query in (20, 40):
        tokens.nth(query).hover()
        page.wait_for_function("([sel, q]) => document.querySelector(sel).dataset.query === q",
                               arg=[f"{WIDGET} .lm-attn-tokens", str(query)], timeout=10_000)
        assert wait_for_kernel_value(page, "lm_view.query", query) == query, "the hovered query reached the kernel"
        seen[query] = _check_strip_is_row(page, 0, layer, head, query)
        assert sum(t["future"] for t in _tokens(page)) == 47 - query, "exactly the tokens after the query are greyed"
    assert seen[20] != seen[40], "another query shades other tokens"
    screenshot_widget(page, WIDGET[1:], screenshot_dir / "07_attention_head_view.png")

    strip.click(position={"x": 3, "y": 3})  # focus the strip without choosing a token
    strip.focus()
    active_before = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex")
    page.keyboard.press("ArrowLeft")
    assert strip.get_attribute("data-query") == "39"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert strip.get_attribute("data-query") == "1"
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex") == active_before, (
        "the arrow keys moved JupyterLab's cell selection instead of the query")
    page.keyboard.press("End")
    assert strip.get_attribute("data-query") == "47"
    assert wait_for_kernel_value(page, "lm_view.query", 47) == 47
    _check_strip_is_row(page, 0, layer, head, 47)
    big = root.locator("canvas.lm-attn-big").first
    expected = kernel_json(page, f"_lm_reference_map(0, {layer}, {head})")  # (T, T)
    assert _map_mismatches(_map_pixels(big, 48), expected, 47) == [], "the large map is not this head's map"


def test_untrained_weights_change_the_shown_map(page):
    """(c) Switching trained -> untrained shows the untrained twin's (different) attention."""
    root = page.locator(WIDGET).first
    layer, head, query = 0, 1, 30
    _choose(page, 0, layer, head)
    root.locator(".lm-attn-token").nth(query).hover()
    assert wait_for_kernel_value(page, "lm_view.query", query) == query
    big = root.locator("canvas.lm-attn-big").first
    trained_strip = _check_strip_is_row(page, 0, layer, head, query)
    trained_pixels = _map_pixels(big, 48)
    assert root.locator(".lm-attn-hint").inner_text().startswith("trained weights")

    root.locator("button[data-variant='1']").click()
    assert wait_for_kernel_value(page, "lm_view.variant", 1) == 1
    assert root.locator("button[data-variant='1']").get_attribute("aria-checked") == "true"
    assert root.locator(".lm-attn-hint").inner_text().startswith("untrained weights")
    untrained_strip = _check_strip_is_row(page, 1, layer, head, query)
    untrained_pixels = _map_pixels(big, 48)
    expected = kernel_json(page, f"_lm_reference_map(1, {layer}, {head})")  # (T, T) of lm_initial
    assert _map_mismatches(untrained_pixels, expected, query) == [], "the large map is not the untrained model's"
    assert max(abs(a - b) for a, b in zip(trained_strip, untrained_strip)) > 0.05, (
        "the trained and untrained rows of this head should differ visibly")
    assert trained_pixels != untrained_pixels, "the map did not change with the weights"
    root.locator("button[data-variant='0']").click()
    assert wait_for_kernel_value(page, "lm_view.variant", 0) == 0


def test_all_heads_show_one_thumbnail_per_head_and_a_click_enlarges_it(page):
    """(d) 'all heads' shows n_head thumbnails, each its head's map; clicking one shows that head large."""
    root = page.locator(WIDGET).first
    n_head = kernel_json(page, "lm_config.n_head")
    layer, query = 0, 47
    root.locator(".lm-attn-tokens").first.focus()
    page.keyboard.press("End")
    _choose(page, 0, layer, -1)
    thumbs = root.locator(".lm-attn-thumb")
    thumbs.first.wait_for()
    assert thumbs.count() == n_head and root.locator("canvas.lm-attn-big").count() == 0
    assert "mean of all heads" in root.locator(".lm-attn-hint").inner_text()
    _check_strip_is_row(page, 0, layer, -1, query)  # the strip: the mean over the heads
    maps = [kernel_json(page, f"_lm_reference_map(0, {layer}, {k})") for k in range(n_head)]
    for k in range(n_head):
        assert thumbs.nth(k).locator("span").inner_text() == f"head {k}"
        bad = _map_mismatches(_map_pixels(thumbs.nth(k).locator("canvas"), 48), maps[k], query)
        assert bad == [], f"thumbnail {k} is not head {k}'s map: {bad[:3]}"

    target = n_head - 2 if n_head > 1 else 0
    thumbs.nth(target).click()
    assert root.locator("select.lm-attn-head").input_value() == str(target)
    assert root.locator("canvas.lm-attn-big").count() == 1 and thumbs.count() == 0
    assert wait_for_kernel_value(page, "lm_view.head", target) == target
    big = root.locator("canvas.lm-attn-big").first
    assert _map_mismatches(_map_pixels(big, 48), maps[target], query) == [], "the enlarged map is not the clicked head's"
    _check_strip_is_row(page, 0, layer, target, query)
    assert output_problems(page) == [], "the interactions broke an output"
