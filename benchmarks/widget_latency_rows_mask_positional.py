"""Latency rows of the mask grid (08) and the positional explorer (06), for benchmarks/bench_widget_latency.py.

`rows(page, lab_url)` gets a JupyterLab page whose notebook has run (06 or 08) and times, in the page,
each interaction a student has with the widget on it, from the input event (key, click, input) to the
frame after the figure shows its new picture:
    mask grid    choose a cell by click and by arrow key (browser); a new prefix typed + Enter (kernel:
                 the four models run), timed to the new attention maps, to the first characters of the
                 samples in the view, and to the samples complete with their judged losses (they are written
                 as they grow);
    positional   the encoding selector, the base slider's arrow key, new curve dimensions + Enter (browser).
Each row: {"widget", "interaction", "side" ("browser"/"kernel"), "median_ms", "max_ms", "n"}.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # loaded by file path: make `tests.browser` importable
    sys.path.insert(0, str(REPO_ROOT))

from tests.browser.mask_positional import (  # noqa: E402
    MASK,
    POSITIONAL,
    choose_cell,
    timed,
    wait_for_samples,
)

MASK_FIGURE = f".{MASK} .lm-attention"
POSITIONAL_FIGURE = f".{POSITIONAL} .lm-positional-figure"
CELLS = ("masked/masked", "masked/unmasked", "unmasked/unmasked", "unmasked/masked")
ARROWS = ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp")  # a loop around the four cells
WORDS = ("file", "class", "value", "list", "name", "object", "method", "string", "module", "error", "type", "data")


def _row(widget: str, interaction: str, side: str, times: list[float]) -> dict:
    return {"widget": widget, "interaction": interaction, "side": side, "median_ms": round(statistics.median(times), 1),
            "max_ms": round(max(times), 1), "n": len(times)}


def _repeat(page, selector: str, actions, moves: int) -> list[float]:
    """Time `moves` actions (cycling through `actions`) after one warm-up."""
    timed(page, selector, actions[0])
    return [timed(page, selector, actions[(i + 1) % len(actions)]) for i in range(moves)]


def mask_rows(page, moves: int = 20, prefixes: int = 8) -> list[dict]:
    """Cell choice by click and by key (browser); a new prefix, to the maps and to the samples (kernel)."""
    page.locator(f".{MASK}").first.scroll_into_view_if_needed()
    wait_for_samples(page, page.locator(f".{MASK} .lm-prefix").first.input_value())
    clicks = [lambda key=key: choose_cell(page, key) for key in CELLS]
    rows = [_row(MASK, "choose a cell (click)", "browser", _repeat(page, MASK_FIGURE, clicks, moves))]
    choose_cell(page, "masked/masked")
    page.locator(f".{MASK} .lm-cell.mod-active").first.focus()
    keys = [lambda key=key: page.keyboard.press(key) for key in ARROWS]
    rows.append(_row(MASK, "choose a cell (arrow key)", "browser", _repeat(page, MASK_FIGURE, keys, moves)))
    maps, first, samples = [], [], []
    box = page.locator(f".{MASK} .lm-prefix").first
    for i in range(prefixes + 1):
        prefix = f"The {WORDS[i % len(WORDS)]} {i} "  # never typed before: the kernel computes it
        box.fill(prefix)
        page.evaluate(_ARM_FIRST_TEXT_JS, MASK)
        elapsed = timed(page, MASK_FIGURE, lambda: box.press("Enter"), timeout_s=120)
        # the page records the times itself: poll it seldom (polling every frame, or reading innerText every
        # 50 ms, would load the CPU the samples are being written on), then check what it shows
        page.wait_for_function("() => window.__lmSamplesDone !== null", timeout=120_000, polling=250)
        wait_for_samples(page, prefix)
        if i:  # the first is a warm-up
            maps.append(elapsed)
            first.append(page.evaluate("() => window.__lmFirstText - window.__lmPrefixStart"))
            samples.append(page.evaluate("() => window.__lmSamplesDone - window.__lmPrefixStart"))
    rows.append(_row(MASK, "new prefix: four attention maps", "kernel", maps))
    rows.append(_row(MASK, "new prefix: first characters of the samples shown", "kernel", first))
    rows.append(_row(MASK, "new prefix: samples complete (streamed as written)", "kernel", samples))
    return rows


# From the Enter key to the frame after the samples box first shows text of the new prefix, and to the
# frame after it shows them complete, with their judged losses (data-done), recorded in the page as they
# happen (no polling interval in the time).
_ARM_FIRST_TEXT_JS = """(cls) => {
  window.__lmPrefixStart = null; window.__lmFirstText = null; window.__lmSamplesDone = null;
  document.addEventListener('keydown', () => { window.__lmPrefixStart = performance.now(); }, {capture: true, once: true});
  const box = document.querySelector('.' + cls + ' .lm-samples');
  const prefix = document.querySelector('.' + cls + ' .lm-prefix').value;
  let first = false;
  const observer = new MutationObserver(() => {
    if (box.dataset.prefix !== prefix) return;
    if (!first && Number(box.dataset.written) > 0) {
      first = true;
      requestAnimationFrame(() => { window.__lmFirstText = performance.now(); });
    }
    if (box.dataset.done === 'true') {
      observer.disconnect();
      requestAnimationFrame(() => { window.__lmSamplesDone = performance.now(); });
    }
  });
  observer.observe(box, {attributes: true, attributeFilter: ['data-written', 'data-prefix', 'data-done']});
}"""


def positional_rows(page, moves: int = 20) -> list[dict]:
    """Encoding selector, base slider key and curve dimensions: all redrawn in the browser."""
    root = page.locator(f".{POSITIONAL}").first
    root.scroll_into_view_if_needed()
    select = root.locator(".lm-kind")
    kinds = [lambda kind=kind: select.select_option(kind) for kind in ("sinusoidal", "learned", "relative", "rotary")]
    rows = [_row(POSITIONAL, "encoding selector", "browser", _repeat(page, POSITIONAL_FIGURE, kinds, moves))]
    select.select_option("rotary")
    slider = root.locator(".lm-base")
    slider.focus()
    keys = [lambda key=key: page.keyboard.press(key) for key in ("ArrowRight", "ArrowLeft")]
    rows.append(_row(POSITIONAL, "base slider (arrow key)", "browser", _repeat(page, POSITIONAL_FIGURE, keys, moves)))
    dims = root.locator(".lm-dims")
    times = []
    for i in range(moves + 1):
        dims.fill(f"{i % 8}, {(i % 8) + 1}")
        elapsed = timed(page, POSITIONAL_FIGURE, lambda: dims.press("Enter"))
        if i:
            times.append(elapsed)
    rows.append(_row(POSITIONAL, "curve dimensions (Enter)", "browser", times))
    dims.fill("0, 1, 6, 7")
    dims.press("Enter")
    return rows


def rows(page, lab_url: str) -> list[dict]:
    """The rows of whichever of the two widgets `page` shows (both, if it shows both); lab_url is not needed."""
    found = []
    if page.locator(f".{MASK} .lm-cell").count():
        found += mask_rows(page)
    if page.locator(f".{POSITIONAL} .lm-kind").count():
        found += positional_rows(page)
    return found
