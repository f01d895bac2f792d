"""The static site tells a reader which widget controls need a kernel: they are marked, and the page disables them.

The page-side check (disabled, with a visible note, while hover and T/k/p stay live) runs in Chromium in
tests/browser/test_static_site.py (slow tier); this file checks, in a second, that every kernel control is
marked and that a built page carries the script and the note in both languages.
"""

import json
from pathlib import Path

import nbformat
import torch

from utils.site.build import NAV_LABELS, export_html
from utils.widgets.kernel_only import NEEDS_KERNEL

STATIC = Path(__file__).resolve().parents[1] / "utils" / "widgets" / "static"


def _page(lang: str) -> str:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 01 · A page")])
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2,
                                                                                      "version_minor": 0}}
    return export_html(notebook, None, None, lang=lang)


def test_a_page_with_widgets_disables_kernel_controls_with_a_note_in_its_language():
    for lang in ("en", "zh"):
        page = _page(lang)
        assert f'.{NEEDS_KERNEL}:not([data-lm-static])' in page and "lm-kernel-note" in page, lang
        assert json.dumps(NAV_LABELS[lang]["kernel_note"]) in page, f"{lang}: the note is not in the page"
    assert "JupyterLab" in NAV_LABELS["en"]["kernel_note"] and "内核" in NAV_LABELS["zh"]["kernel_note"]


def test_a_page_without_widgets_has_no_script():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 02 · No widgets")])
    assert "lm-kernel-note" not in export_html(notebook, None, None)


def test_kernel_controls_of_the_browser_side_widgets_are_marked():
    """New text (05) and new prefix (08) go to the kernel; hover, heads, cells, T/k/p and positions do not."""
    attention = (STATIC / "attention_map.js").read_text()
    assert 'class: "lm-aw-controls lm-needs-kernel"' in attention and "textRow" in attention
    mask = (STATIC / "mask_grid.js").read_text()
    assert '<label class="lm-prefix-label lm-needs-kernel">' in mask
    assert NEEDS_KERNEL not in (STATIC / "temperature.js").read_text(), "09 draws its samples in the browser"
    assert NEEDS_KERNEL not in (STATIC / "positional.js").read_text(), "06 recomputes everything in the browser"


def test_kernel_drawn_widgets_mark_every_control():
    from utils.baselines import BaselineConfig, UniformLM
    from utils.ngram_counts import NGramCounts
    from utils.tokenizers import CharTokenizer
    from utils.widgets.autoregression import AutoregressionExplorer
    from utils.widgets.ngram import NGramExplorer

    tokenizer = CharTokenizer.from_text("abc ")
    explorer = AutoregressionExplorer({"uniform": UniformLM(BaselineConfig(tokenizer.vocab_size))}, tokenizer, "ab c")
    assert NEEDS_KERNEL in explorer.text_box._dom_classes, "a new text is scored by the kernel"
    assert NEEDS_KERNEL not in explorer.model_picker._dom_classes, "the picker drives the precomputed site view"
    assert explorer.site_view in explorer.widget.children
    counts = NGramCounts.from_sequences([torch.tensor(tokenizer.encode("abc abc ab"))], tokenizer.vocab_size, 2)
    ngram = NGramExplorer(counts, tokenizer, "a")
    controls = (ngram.smoothing_picker, ngram.strength_slider, ngram.prefix_box, ngram.resample_button)
    assert all(NEEDS_KERNEL in c._dom_classes for c in controls)
    assert NEEDS_KERNEL not in ngram.n_slider._dom_classes, "n drives the precomputed site view"
    assert ngram.site_view in ngram.widget.children
    assert NEEDS_KERNEL not in explorer.canvas.image._dom_classes, "the figure itself stays as it is"
