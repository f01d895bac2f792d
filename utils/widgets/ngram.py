"""Widget for notebook 02: pick n, a smoothing and its strength, type a prefix; see the next-token bars and a sample.

Counting happens once, before the widget is built (an NGramCounts up to the largest n);
a callback only picks tables out of it (NGramLM.from_counts, no counting) and reads
probabilities, so it never "trains". The probability axis is fixed (0 to 1) so that bars
compare across n and smoothings (higher n: peakier distributions); each bar carries its
symbol above it, and a change redraws only the bars, their symbols and the title on a
saved background (utils.widgets.blit). The new sample (about 1 ms a symbol) follows once the
controls have rested for SAMPLE_DELAY_S, so dragging a slider redraws the bars at every step
without queueing a sample for each one; with no event loop running (plain Python, the unit
tests) it is drawn at once.
"""

from __future__ import annotations

import asyncio
import html

import ipywidgets as widgets
import torch

from utils.i18n.text import mark, tr
from utils.ngram import NGramLM
from utils.ngram_counts import NGramCounts
from utils.sampling import generate
from utils.tokenizers import Tokenizer
from utils.widgets.autoregression import readable
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget
from utils.widgets.kernel_only import needs_kernel
from utils.widgets.next_symbol_view import NextSymbolView, next_symbol_payload

SAMPLE_DELAY_S = 0.25  # the sample after a change waits this long for the controls to rest

# The strength control of each smoothing: (setting name, label, min, max, step, default).
STRENGTHS = {
    "mle": None,
    "add_k": ("k", mark("k (added count)"), 0.0, 2.0, 0.01, 1.0),
    "interpolated": ("lam", mark("λ (weight of order n)"), 0.0, 1.0, 0.01, 0.8),
    "kneser_ney": ("discount", mark("D (discount)"), 0.0, 1.0, 0.01, 0.75),
}


def build_model(counts: NGramCounts, n: int, smoothing: str, strength: float | None) -> NGramLM:
    """The model of order n with a smoothing and its strength, on counts made once."""
    setting = STRENGTHS.get(smoothing)
    settings = {} if setting is None or strength is None else {setting[0]: strength}
    return NGramLM.from_counts(counts, n, smoothing, **settings)


def top_next_tokens(model: NGramLM, tokenizer: Tokenizer, prefix: str, top: int = 15) -> tuple[list[str], torch.Tensor]:
    """The `top` most likely next symbols after `prefix` and their probabilities (descending)."""
    ids = tokenizer.encode(prefix)  # a ValueError names symbols the vocabulary lacks
    probs = model.next_token_distribution(ids)  # (V,)
    values, order = torch.topk(probs, min(top, probs.numel()))
    return [tokenizer.vocab[i] for i in order.tolist()], values


def sample_text(model: NGramLM, tokenizer: Tokenizer, prefix: str, length: int, seed: int) -> str:
    """A fresh continuation of `prefix` of `length` symbols, reproducible from `seed`."""
    ids = tokenizer.encode(prefix)
    if not ids:
        raise ValueError(tr("type a prefix of at least one symbol to continue"))
    out = generate(model, ids, length, generator=torch.Generator().manual_seed(seed))[0].tolist()
    return tokenizer.decode(out[len(ids) :])


class NGramExplorer:
    """Controls for n, smoothing, strength and prefix -> next-token bars (updated in place) and a sample."""

    def __init__(self, counts: NGramCounts, tokenizer: Tokenizer, prefix: str = "The ", n: int = 3,
                 top: int = 15, sample_length: int = 100):
        if counts.vocab_size != tokenizer.vocab_size:
            raise ValueError(f"the counts cover {counts.vocab_size} tokens but the tokenizer has {tokenizer.vocab_size}")
        self.counts, self.tokenizer, self.top, self.sample_length = counts, tokenizer, top, sample_length
        self.seed = 0
        self.site_view_for: tuple | None = None  # (prefix, smoothing, strength) of the site view's payload
        self.pending_sample: asyncio.TimerHandle | None = None
        self.n_slider = widgets.IntSlider(value=min(n, counts.max_order), min=1, max=counts.max_order, description="n")
        self.n_slider.add_class("lm-main-control")
        self.smoothing_picker = widgets.Dropdown(options=list(STRENGTHS), value="kneser_ney", description=tr("smoothing"))
        self.strength_slider = widgets.FloatSlider(description=tr("strength"), continuous_update=False)
        self.prefix_box = widgets.Text(value=prefix, description=tr("prefix"), continuous_update=False)
        self.resample_button = widgets.Button(description=tr("new sample"))
        self.status = widgets.HTML()
        self.sample = widgets.HTML()
        self.canvas = FigureWidget(figsize=(10, 3.6), dpi=72)
        self.canvas.image.add_class("lm-figure")
        for kernel_drawn in (self.canvas.image, self.status, self.sample):
            kernel_drawn.add_class("lm-kernel-figure")  # the static site hides them and shows site_view instead
        self.site_view = NextSymbolView(n=self.n_slider.value)  # the bars at every n, drawn in the browser
        widgets.jslink((self.n_slider, "value"), (self.site_view, "n"))  # works without a kernel
        self.ax = self.canvas.subplots()
        self.bars = self.ax.bar(range(top), [0.0] * top, color="tab:blue")
        self.symbol_labels = [self.ax.text(i, 0.0, "", ha="center", va="bottom", fontsize=15) for i in range(top)]
        self.ax.set_xticks([])
        self.ax.set_xlim(-0.6, top - 0.4)
        self.ax.set_ylim(0, 1.08)  # fixed: bars compare across settings; room for the symbol above a bar of 1
        self.ax.set_xlabel(tr("the {top} most likely next symbols, most likely first", top=top))
        self.ax.set_ylabel(tr("p(next | prefix)"))
        self.ax.set_title(" ")  # the title text changes with every update (drawn over the saved background)
        self.blitter = Blitter(self.canvas)
        controls = widgets.HBox([self.n_slider, self.smoothing_picker, self.strength_slider])
        self.widget = widgets.VBox([controls, widgets.HBox([self.prefix_box, self.resample_button]),
                                    self.canvas.image, self.site_view, self.status, self.sample])
        self.widget.add_class("lm-ngram-widget")
        # the kernel recomputes these: the static site disables them (n works there: site_view holds every order)
        needs_kernel(self.smoothing_picker, self.strength_slider, self.prefix_box, self.resample_button)
        self._configure_strength()
        for control in (self.n_slider, self.strength_slider, self.prefix_box):
            control.observe(lambda _: self.update(defer_sample=True), names="value")
        self.smoothing_picker.observe(lambda _: (self._configure_strength(), self.update(defer_sample=True)),
                                      names="value")
        self.resample_button.on_click(lambda _: self.resample())
        self.update()

    def _configure_strength(self) -> None:
        setting = STRENGTHS[self.smoothing_picker.value]
        self.strength_slider.disabled = setting is None
        if setting is not None:
            _, label, low, high, step, default = setting
            with self.strength_slider.hold_trait_notifications():
                self.strength_slider.min, self.strength_slider.max, self.strength_slider.step = low, high, step
                self.strength_slider.value = default
            self.strength_slider.description = label.split(" ")[0]  # the symbol: k, λ or D
            self.strength_slider.tooltip = tr(label)

    def model(self, n: int | None = None) -> NGramLM:
        """The model the controls describe (at order `n` instead of the slider's, if given)."""
        strength = None if self.strength_slider.disabled else self.strength_slider.value
        return build_model(self.counts, self.n_slider.value if n is None else n, self.smoothing_picker.value, strength)

    def _refresh_site_view(self, prefix: str) -> None:
        """The site view's payload: the top next symbols after `prefix` at every order, with the current smoothing."""
        orders = {}
        for n in range(1, self.counts.max_order + 1):
            symbols, probs = top_next_tokens(self.model(n), self.tokenizer, prefix, self.top)
            orders[n] = ([readable(symbol) for symbol in symbols], probs.tolist())
        self.site_view.payload = next_symbol_payload(self.smoothing_picker.value, prefix, orders)

    def update(self, defer_sample: bool = False) -> None:
        """Redraw the bars and draw a fresh sample for the current settings (after a rest, if deferred)."""
        model, prefix = self.model(), self.prefix_box.value
        try:
            symbols, probs = top_next_tokens(model, self.tokenizer, prefix, self.top)
        except ValueError as error:
            self.status.value = tr("<b>Cannot use this prefix:</b> {error}", error=html.escape(str(error)))
            return
        for position, (bar, label) in enumerate(zip(self.bars, self.symbol_labels)):
            height = float(probs[position]) if position < len(probs) else 0.0
            bar.set_height(height)
            label.set_text(readable(symbols[position]) if position < len(symbols) else "")
            label.set_y(height + 0.01)
        context = prefix[-(model.n - 1) :] if model.n > 1 else ""
        self.ax.title.set_text(tr("n = {n}, {smoothing}: next symbol after {context!r}", n=model.n,
                                  smoothing=model.config.smoothing, context=context))
        self.status.value = tr("top {count} symbols hold {share:.0%} of the probability", count=len(symbols),
                               share=float(probs.sum()))
        self.blitter.refresh([*self.bars, *self.symbol_labels, self.ax.title])
        shown_for = (prefix, self.smoothing_picker.value, None if self.strength_slider.disabled else self.strength_slider.value)
        if shown_for != self.site_view_for:  # a new n alone leaves the site view's orders as they are
            self._refresh_site_view(prefix)
            self.site_view_for = shown_for
        if defer_sample:
            self.schedule_sample()
        else:
            self.resample()

    def schedule_sample(self) -> None:
        """Draw a sample once the controls rest for SAMPLE_DELAY_S (a later change restarts the wait)."""
        if self.pending_sample is not None:
            self.pending_sample.cancel()
            self.pending_sample = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (plain Python): sample now
            self.resample()
            return
        self.pending_sample = loop.call_later(SAMPLE_DELAY_S, self.resample)

    def resample(self) -> None:
        """A new sample from the current model (a new seed each time)."""
        self.pending_sample = None
        self.seed += 1
        try:
            text = sample_text(self.model(), self.tokenizer, self.prefix_box.value, self.sample_length, self.seed)
        except ValueError as error:
            self.sample.value = tr("<b>No sample:</b> {error}", error=html.escape(str(error)))
            return
        self.sample.value = f"<pre>{html.escape(self.prefix_box.value)}<b>{html.escape(text)}</b></pre>"


def ngram_widget(counts: NGramCounts, tokenizer: Tokenizer, prefix: str = "The ", n: int = 3) -> NGramExplorer:
    """Build the explorer; display `explorer.widget` in a notebook."""
    return NGramExplorer(counts, tokenizer, prefix, n)
