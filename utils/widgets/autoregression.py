"""Widget for notebook 01: how surprised each model is by each token of a sentence, given what came before."""

from __future__ import annotations

import math

import ipywidgets as widgets
import torch

from utils.evaluation import token_log_probs
from utils.interface import LanguageModel
from utils.tokenizers import Tokenizer
from utils.widgets.canvas import FigureWidget

VISIBLE = {" ": "␣", "\n": "⏎", "\t": "⇥"}


def readable(symbol: str) -> str:
    """A label that shows whitespace symbols."""
    return VISIBLE.get(symbol, symbol)


def token_surprisals(model: LanguageModel, tokenizer: Tokenizer, text: str) -> tuple[list[str], torch.Tensor]:
    """The symbols of `text` after the first, and -log2 p(symbol | everything before it) for each, in bits."""
    ids = tokenizer.encode(text)  # raises a ValueError naming unknown symbols
    if len(ids) < 2:
        raise ValueError("type at least two symbols: the first one is the context for the second")
    bits = -token_log_probs(model, ids) / math.log(2)  # (T-1,)
    return tokenizer.split(text)[1:], bits.cpu()


def summary(bits: torch.Tensor) -> str:
    """Total and mean surprisal, and the perplexity they imply."""
    mean = float(bits.mean())
    return f"{len(bits)} predictions · total {float(bits.sum()):.1f} bits · {mean:.2f} bits/token · perplexity {2 ** mean:.1f}"


class AutoregressionExplorer:
    """Text box + model selector -> a bar per token of its surprisal; bars are updated in place."""

    def __init__(self, models: dict[str, LanguageModel], tokenizer: Tokenizer, text: str, max_tokens: int = 40):
        if not models:
            raise ValueError("give at least one model, e.g. {'uniform': UniformLM(...)}")
        self.models, self.tokenizer, self.max_tokens = models, tokenizer, max_tokens
        self.model_picker = widgets.Dropdown(options=list(models), description="model")
        self.model_picker.add_class("lm-main-control")
        self.text_box = widgets.Text(value=text, description="text", continuous_update=False,
                                     layout=widgets.Layout(width="90%"))
        self.status = widgets.HTML()
        self.canvas = FigureWidget(figsize=(10, 3.6), dpi=72)
        self.canvas.image.add_class("lm-figure")
        self.ax = self.canvas.subplots()
        self.bars = self.ax.bar(range(max_tokens), [0.0] * max_tokens, color="tab:blue")
        self.ax.set_ylabel("surprisal (bits)")
        self.ax.set_xlim(-0.6, max_tokens - 0.4)
        self.ax.set_xticks(range(max_tokens))
        self.widget = widgets.VBox([self.model_picker, self.text_box, self.canvas.image, self.status])
        self.widget.add_class("lm-autoregression-widget")
        self.model_picker.observe(lambda _: self.update(), names="value")
        self.text_box.observe(lambda _: self.update(), names="value")
        self.update()

    def update(self) -> None:
        """Recompute the surprisals for the current text and model, and redraw the bars."""
        model = self.models[self.model_picker.value]
        try:
            symbols, bits = token_surprisals(model, self.tokenizer, self.text_box.value)
        except ValueError as error:
            self.status.value = f"<b>Cannot score this text:</b> {error}"
            return
        symbols, bits = symbols[-self.max_tokens :], bits[-self.max_tokens :]
        for position, bar in enumerate(self.bars):
            bar.set_height(float(bits[position]) if position < len(bits) else 0.0)
        labels = [readable(s) for s in symbols] + [""] * (self.max_tokens - len(symbols))
        self.ax.set_xticklabels(labels)
        self.ax.set_ylim(0, max(8.0, float(bits.max()) * 1.1))
        self.ax.set_title(f"{self.model_picker.value}: surprisal of each token given the ones before")
        self.status.value = summary(bits)
        self.canvas.refresh()


def autoregression_widget(models: dict[str, LanguageModel], tokenizer: Tokenizer, text: str) -> AutoregressionExplorer:
    """Build the explorer; display `explorer.widget` in a notebook."""
    return AutoregressionExplorer(models, tokenizer, text)
