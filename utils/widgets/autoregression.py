"""Widget for notebook 01: how surprised each model is by each token of a sentence, given what came before."""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
import torch

from utils.evaluation import token_log_probs
from utils.i18n.text import tr
from utils.interface import LanguageModel
from utils.tokenizers import Tokenizer
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget
from utils.widgets.kernel_only import needs_kernel
from utils.widgets.surprisal_view import SurprisalView, surprisal_payload

VISIBLE = {" ": "␣", "\n": "⏎", "\t": "⇥"}


def readable(symbol: str) -> str:
    """A label that shows whitespace symbols."""
    return VISIBLE.get(symbol, symbol)


def token_surprisals(model: LanguageModel, tokenizer: Tokenizer, text: str) -> tuple[list[str], torch.Tensor]:
    """The symbols of `text` after the first, and -log2 p(symbol | everything before it) for each, in bits."""
    ids = tokenizer.encode(text)  # raises a ValueError naming unknown symbols
    if len(ids) < 2:
        raise ValueError(tr("type at least two symbols: the first one is the context for the second"))
    bits = -token_log_probs(model, ids) / math.log(2)  # (T-1,)
    return tokenizer.split(text)[1:], bits.cpu()


def summary(bits: torch.Tensor) -> str:
    """Total and mean surprisal, and the perplexity they imply."""
    mean = float(bits.mean())
    return tr("{count} predictions · total {total:.1f} bits · {mean:.2f} bits/token · perplexity {perplexity:.1f}",
              count=len(bits), total=float(bits.sum()), mean=mean, perplexity=2**mean)


class AutoregressionExplorer:
    """Text box + model selector -> a bar per token of its surprisal; bars are updated in place.

    A new text is scored by every model at once and the bits axis is set to the largest bar of
    any of them, so switching the model compares on one scale and redraws only the bars and the
    title over a saved background (utils.widgets.blit); a new text redraws the whole figure.
    """

    def __init__(self, models: dict[str, LanguageModel], tokenizer: Tokenizer, text: str, max_tokens: int = 40):
        if not models:
            raise ValueError("give at least one model, e.g. {'uniform': UniformLM(...)}")
        self.models, self.tokenizer, self.max_tokens = models, tokenizer, max_tokens
        self.scores: dict[str, torch.Tensor] = {}  # model name -> bits per token of the scored text
        self.scored_text: str | None = None
        self.model_picker = widgets.Dropdown(options=list(models), description=tr("model"))
        self.model_picker.add_class("lm-main-control")
        self.text_box = widgets.Text(value=text, description=tr("text"), continuous_update=False,
                                     layout=widgets.Layout(width="90%"))
        self.status = widgets.HTML()
        self.status.add_class("lm-kernel-figure")  # the site view writes its own summary
        self.canvas = FigureWidget(figsize=(10, 3.6), dpi=72)
        self.canvas.image.add_class("lm-figure")
        self.ax = self.canvas.subplots()
        self.bars = self.ax.bar(range(max_tokens), [0.0] * max_tokens, color="tab:blue")
        self.ax.set_ylabel(tr("surprisal (bits)"))
        self.ax.set_xlim(-0.6, max_tokens - 0.4)
        self.ax.set_xticks(range(max_tokens))
        self.ax.set_title(" ")  # its text changes with the model (drawn over the saved background)
        self.blitter = Blitter(self.canvas)
        self.canvas.image.add_class("lm-kernel-figure")  # the static site hides it and shows site_view instead
        self.site_view = SurprisalView()  # every model's bits, drawn in the browser
        widgets.jslink((self.model_picker, "index"), (self.site_view, "index"))  # works without a kernel
        self.widget = widgets.VBox([self.model_picker, self.text_box, self.canvas.image, self.site_view, self.status])
        self.widget.add_class("lm-autoregression-widget")
        needs_kernel(self.text_box)  # a new text needs the kernel; the model picker works on the site (site_view)
        self.model_picker.observe(lambda _: self.update(), names="value")
        self.text_box.observe(lambda _: self.update(), names="value")
        self.update()

    def _score(self, text: str) -> None:
        """Score `text` with every model; set the token labels and the shared bits axis (raises ValueError)."""
        scores, symbols = {}, []
        for name, model in self.models.items():
            symbols, bits = token_surprisals(model, self.tokenizer, text)
            scores[name] = bits[-self.max_tokens :]
        symbols = symbols[-self.max_tokens :]
        self.scores, self.scored_text = scores, text
        self.ax.set_xticklabels([readable(s) for s in symbols] + [""] * (self.max_tokens - len(symbols)))
        highest = max(float(bits.max()) for bits in scores.values())
        self.ax.set_ylim(0, max(8.0, highest * 1.1))
        self.site_view.payload = surprisal_payload([readable(s) for s in symbols],
                                                   {name: bits.tolist() for name, bits in scores.items()}, max(8.0, highest * 1.1))
        self.blitter.invalidate()

    def update(self) -> None:
        """Show the current model's surprisals for the current text (scoring the text first if it is new)."""
        if self.text_box.value != self.scored_text:
            try:
                self._score(self.text_box.value)
            except ValueError as error:
                self.status.value = tr("<b>Cannot score this text:</b> {error}", error=html.escape(str(error)))
                return
        name = self.model_picker.value
        bits = self.scores[name]
        for position, bar in enumerate(self.bars):
            bar.set_height(float(bits[position]) if position < len(bits) else 0.0)
        self.ax.title.set_text(tr("{model}: surprisal of each token given the ones before", model=name))
        self.status.value = summary(bits)
        self.blitter.refresh([*self.bars, self.ax.title])


def autoregression_widget(models: dict[str, LanguageModel], tokenizer: Tokenizer, text: str) -> AutoregressionExplorer:
    """Build the explorer; display `explorer.widget` in a notebook."""
    return AutoregressionExplorer(models, tokenizer, text)
