"""Page helpers for the mask-grid (08) and positional (06) widgets: read what the view shows, time an interaction.

Used by tests/browser/test_mask_positional_widgets.py and benchmarks/widget_latency_rows_mask_positional.py.
Both widgets paint their heatmaps on a <canvas> under an inline SVG of labels and curves (utils/widgets/static/).
These helpers read both in the page, so a test can check what the picture really holds (its title, its curves,
its heatmap pixels).
"""

from __future__ import annotations

import json

MASK, POSITIONAL = "lm-mask-widget", "lm-positional-widget"

# What a figure holds: its title texts and polylines (score panel, curves) from its inline SVG, the heatmap's pixels
# from its <canvas>.
_READ_FIGURE_JS = """(node) => {
  const svg = node.querySelector('svg');
  const texts = Array.from(svg.querySelectorAll('text')).map(t => t.textContent);
  const scores = Array.from(svg.querySelectorAll('polyline[data-role=score]')).map(
    p => p.getAttribute('points').trim().split(/\\s+/).map(xy => xy.split(',').map(Number)));
  const curves = Array.from(svg.querySelectorAll('polyline[data-dim]')).map(p => p.getAttribute('points'));
  const source = node.querySelector('canvas');
  let width = 0, height = 0, pixels = null;
  if (source) {
    width = source.width; height = source.height;
    const canvas = document.createElement('canvas');
    canvas.width = width; canvas.height = height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(source, 0, 0);
    const data = ctx.getImageData(0, 0, width, height).data;
    pixels = [];
    for (let i = 0; i < height; i++) {
      const row = [];
      for (let j = 0; j < width; j++) { const k = 4 * (i * width + j); row.push([data[k], data[k + 1], data[k + 2]]); }
      pixels.push(row);
    }
  }
  const label = node.getAttribute('aria-label') || '';
  return {label, texts, scores, curves, width, height, pixels,
          kind: node.dataset.kind || null, base: node.dataset.base || null};
}"""


def read_figure(page, selector: str) -> dict:
    """What the figure at `selector` shows: its texts, score and curve polylines, heatmap pixels."""
    return page.locator(selector).first.evaluate(_READ_FIGURE_JS)


def mask_state(page) -> dict:
    """The mask grid as the page shows it: chosen cell, the cells' numbers, the detail texts and status."""
    return page.evaluate(
        """(cls) => {
          const root = document.querySelector('.' + cls);
          const cells = Array.from(root.querySelectorAll('.lm-cell')).map(b => ({
            key: b.dataset.key, active: b.classList.contains('mod-active'), pressed: b.getAttribute('aria-pressed'),
            numbers: Array.from(b.querySelectorAll('b')).map(n => n.textContent), text: b.innerText}));
          return {cells, selected: (cells.find(c => c.active) || {}).key || null,
                  focused: document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key || null : null,
                  numbers: root.querySelector('.lm-numbers').innerText,
                  samples: Array.from(root.querySelectorAll('.lm-sample')).map(s => s.innerText),
                  samples_key: root.querySelector('.lm-samples').dataset.key || null,
                  status: root.querySelector('.lm-status').textContent,
                  prefix: root.querySelector('.lm-prefix').value};
        }""",
        MASK,
    )


def positional_state(page) -> dict:
    """The positional widget's controls as the page shows them."""
    return page.evaluate(
        """(cls) => {
          const root = document.querySelector('.' + cls);
          const base = root.querySelector('.lm-base');
          return {kind: root.querySelector('.lm-kind').value, base_index: Number(base.value), base_disabled: base.disabled,
                  base_text: root.querySelector('.lm-base-value').textContent, note: root.querySelector('.lm-note').innerText,
                  message: root.querySelector('.lm-message').innerText, dims: root.querySelector('.lm-dims').value};
        }""",
        POSITIONAL,
    )


# From the first input event (key, pointer, input) to the frame after the figure's redraw is complete (its
# data-lm-frame attribute, set by the widget once the new view is in place, changes).
_ARM_JS = """(selector) => {
  const figure = document.querySelector(selector);
  const state = () => figure.getAttribute('data-lm-frame');
  const result = {start: null, end: null, before: state()};
  window.__lmTimed = result;
  const onInput = () => { if (result.start === null) result.start = performance.now(); };
  const events = ['keydown', 'mousedown', 'input', 'change'];
  events.forEach(name => document.addEventListener(name, onInput, {capture: true, once: true}));
  const finish = () => {
    if (result.end !== null || state() === result.before) return;
    requestAnimationFrame(() => { if (result.end === null) result.end = performance.now(); });
  };
  const observer = new MutationObserver(finish);
  observer.observe(figure, {attributes: true, attributeFilter: ['data-lm-frame']});
  window.__lmTimedCleanup = () => { observer.disconnect(); events.forEach(n => document.removeEventListener(n, onInput, {capture: true})); };
}"""


def timed(page, selector: str, action, timeout_s: float = 60.0) -> float:
    """Milliseconds, measured in the page, from `action()`'s first input event to the frame after `selector`'s redraw."""
    page.evaluate(_ARM_JS, selector)
    try:
        action()
        page.wait_for_function("() => window.__lmTimed.end !== null && window.__lmTimed.start !== null",
                               timeout=timeout_s * 1000, polling=10)
    finally:
        result = page.evaluate("() => { window.__lmTimedCleanup(); return window.__lmTimed; }")
    return result["end"] - result["start"]


def choose_cell(page, key: str) -> None:
    """Click the grid cell `key` ('trained/evaluated')."""
    page.locator(f".{MASK} .lm-cell[data-key='{key}']").first.click()


def new_prefix(page, text: str) -> None:
    """Type `text` into the prefix box and press Enter, as a student does."""
    box = page.locator(f".{MASK} .lm-prefix").first
    box.fill(text)
    box.press("Enter")


def wait_for_samples(page, prefix: str, timeout_s: float = 120.0) -> None:
    """Wait until the grid shows samples of `prefix` (the kernel's second message) and the status is clear."""
    page.wait_for_function(
        """([cls, prefix]) => {
          const root = document.querySelector('.' + cls);
          const samples = Array.from(root.querySelectorAll('.lm-sample'));
          return root.querySelector('.lm-status').textContent === '' && samples.length > 0 &&
                 samples.every(s => s.innerText.startsWith(prefix.replace(/\\n/g, '⏎')));
        }""",
        arg=[MASK, prefix], timeout=timeout_s * 1000, polling=50)


_KERNEL_EVAL_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let out = '';
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += 'KERNEL ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}"""


def kernel_value(page, expression: str):
    """The value of a Python `expression` in the page's notebook kernel, through JSON (no output in the notebook)."""
    out = page.evaluate(_KERNEL_EVAL_JS, f"import json as _j\nprint(_j.dumps({expression}))")
    if "KERNEL ERROR" in out:
        raise RuntimeError(f"kernel code failed: {out[-600:]}")
    return json.loads(out.strip().splitlines()[-1])
