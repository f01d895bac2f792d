"""Small notebooks that exercise the browser harness: a working widget, and the ways outputs break."""

from __future__ import annotations

from pathlib import Path

import nbformat

DEMO_WIDGET_CLASS = "lm-demo-widget"

_DEMO_WIDGET = '''import numpy as np
import ipywidgets as widgets
from utils.widgets.canvas import FigureWidget

canvas = FigureWidget(figsize=(4, 2.5), dpi=60)
ax = canvas.subplots()
xs = np.linspace(0, 6, 60)
(line,) = ax.plot(xs, np.sin(xs))
frequency = widgets.IntSlider(value=1, min=1, max=30, description="frequency")
frequency.add_class("lm-main-control")
canvas.image.add_class("lm-figure")


def update(freq: int) -> None:
    """Redraw the curve in place for frequency `freq`."""
    line.set_ydata(np.sin(freq * xs / 3))
    canvas.refresh()


frequency.observe(lambda change: update(change["new"]), names="value")
update(frequency.value)
demo = widgets.VBox([frequency, canvas.image])
demo.add_class("lm-demo-widget")
demo'''

# Each cell shows one way an output breaks for a student; the last one raises (Run All stops there).
_BROKEN_CELLS = [
    # A widget printed as text, as when the widget extension is missing.
    "from IPython.display import display\n"
    "display({'text/plain': 'VBox(children=(IntSlider(value=1),))'}, raw=True)",
    # A widget view whose model the page does not know.
    "display({'application/vnd.jupyter.widget-view+json': "
    "{'model_id': '0123456789abcdef', 'version_major': 2, 'version_minor': 0}, "
    "'text/plain': 'widget'}, raw=True)",
    "raise ValueError('a cell that fails')",
]


_FIGURE = """import matplotlib.pyplot as plt
import numpy as np

xs = np.linspace(0, 6, 60)
plt.figure(figsize=(4, 2.5), dpi=60)
plt.plot(xs, np.cos(xs))
plt.show()"""


def _write(cells: list[str], path: Path, intro: str = "# Harness check") -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_markdown_cell(intro)] + [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(notebook, path)
    return path


def write_demo_notebook(folder: Path, name: str = "demo_widget.ipynb") -> Path:
    """A notebook with one FigureWidget + IntSlider widget (class lm-demo-widget)."""
    return _write(["print('ready')", _DEMO_WIDGET], folder / name)


def write_broken_notebook(folder: Path, name: str = "broken_outputs.ipynb") -> Path:
    """A notebook whose outputs show a text fallback, a missing widget model and a traceback."""
    return _write(_BROKEN_CELLS, folder / name)


def write_figure_notebook(folder: Path, name: str = "figure_and_formula.ipynb") -> Path:
    """A notebook with a formula in markdown and one inline matplotlib figure."""
    intro = "# Figure and formula\n\nThe model factorises $p(x_1, \\dots, x_T) = \\prod_t p(x_t \\mid x_{<t})$."
    return _write([_FIGURE], folder / name, intro=intro)


_ANYWIDGETS = [
    '''import torch
from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.attention_map import attention_widget
from utils.widgets.temperature import TemperatureWidget

TEXT = "Can you can a can like a canner can a can."
tokenizer = CharTokenizer.from_text(TEXT)
torch.manual_seed(0)
model = TransformerLM(TransformerConfig(tokenizer.vocab_size, context_length=64, n_layer=2, n_head=4, d_model=32)).eval()
untrained = TransformerLM(model.config).eval()
logits = torch.randn(tokenizer.vocab_size, generator=torch.Generator().manual_seed(1)) * 3  # (V,)''',
    "attention = attention_widget(model, tokenizer, TEXT, untrained=untrained)\nattention",
    "temperature = TemperatureWidget(logits, list(tokenizer.vocab), context=TEXT, n_bars=20)\ntemperature",
    "print('logits', [round(x, 6) for x in logits.tolist()])",
    '''from utils.ngram import NGramLM
from utils.widgets.mask import mask_widget

pair = {}
for name, causal in (("masked", True), ("unmasked", False)):
    torch.manual_seed(0)
    pair[name] = TransformerLM(TransformerConfig(tokenizer.vocab_size, context_length=16, n_layer=2, n_head=2, d_model=16,
                                                 causal=causal)).eval()
    pair[name].use_kv_cache = causal
judge = NGramLM.fit(torch.tensor(tokenizer.encode(TEXT)), tokenizer.vocab_size, n=3)
windows = [tokenizer.encode(TEXT[s : s + 12]) for s in (0, 10, 20)]
grid = mask_widget(pair, judge, tokenizer, windows, prefix="Can ", n_samples=2, length=12)
grid''',
    '''from utils.widgets.positional import positional_scores_widget

position_models = {}
for kind in ("sinusoidal", "learned", "relative", "rotary"):
    torch.manual_seed(0)
    position_models[kind] = TransformerLM(TransformerConfig(tokenizer.vocab_size, context_length=16, n_layer=1, n_head=2,
                                                            d_model=16, positional=kind)).eval()
positions = positional_scores_widget(position_models, n_positions=16)
positions''',
]


def write_anywidget_notebook(folder: Path, name: str = "anywidgets.ipynb") -> Path:
    """A notebook with the course's anywidgets (attention, temperature, mask grid, positional explorer) on small untrained Transformers."""
    return _write(_ANYWIDGETS, folder / name, intro="# The course's anywidgets on a small model")


_ZH_WIDGET = """import torch
from utils.widgets.temperature import TemperatureWidget
TemperatureWidget(torch.tensor([2.0, 1.0, 0.5, 0.0]), ["a", "b", "c", "d"], context="ab")"""


def write_zh_widget_notebook(folder: Path, name: str = "zh/temperature_zh.ipynb") -> Path:
    """A widget notebook in a folder named zh: its kernel speaks Chinese (utils.i18n.text), so do the widget's labels."""
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    return _write([_ZH_WIDGET], folder / name, intro="# 中文笔记本中的控件")
