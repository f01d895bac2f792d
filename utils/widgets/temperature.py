"""Temperature, top-k and top-p explorer: the next-token distribution as bars, with the cut-off, and fresh samples.

The model runs once, when the widget is built (another context: build another widget); moving
T, k or p only re-weights the stored logits (`temperature_view`), so it never re-runs the
model. Bars keep a fixed order (by logit, which no temperature changes), kept tokens are
coloured, cut ones grey, and a dashed line marks where top-k / top-p cut. The probability
axis is fixed (0 to 1), so a higher T visibly flattens the bars and a lower one sharpens them;
a change redraws only the bars and the cut-off over a saved background (utils.widgets.blit).
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import torch

from utils.sampling import next_token_probs, softmax_with_temperature
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget

KEPT_COLOUR, CUT_COLOUR = "#1f77b4", "#c8c8c8"


@dataclass
class TemperatureView:
    """What one redraw needs: probabilities before and after the filters, in a fixed token order."""

    order: np.ndarray  # (N,) token ids shown, most likely first
    tempered: np.ndarray  # (N,) softmax(logits / T) of the shown tokens, before any filter
    probs: np.ndarray  # (N,) the sampling distribution after top-k / top-p (0 for cut tokens)
    kept: np.ndarray  # (N,) bool: the token survives the filters
    n_kept: int  # number of kept tokens in the whole vocabulary
    entropy: float  # entropy (nats) of the full sampling distribution


def temperature_view(
    logits: torch.Tensor, temperature: float, top_k: int | None = None, top_p: float | None = None, n_bars: int = 30
) -> TemperatureView:
    """Next-token distribution of `logits` (V,) after temperature, top-k and top-p, for the n_bars likeliest tokens."""
    logits = torch.as_tensor(logits).detach().float().flatten()  # (V,)
    if n_bars < 1:
        raise ValueError(f"n_bars must be at least 1, got {n_bars}")
    probs = next_token_probs(logits, temperature, top_k, top_p)  # (V,)
    tempered = softmax_with_temperature(logits, temperature)  # (V,)
    order = torch.argsort(logits, descending=True, stable=True)[:n_bars]  # (N,)
    positive = probs[probs > 0]
    entropy = float(-(positive * positive.log()).sum())
    return TemperatureView(
        order.numpy(), tempered[order].numpy(), probs[order].numpy(), (probs[order] > 0).numpy(),
        int((probs > 0).sum()), entropy,
    )


def draw_samples(view_probs: torch.Tensor, n: int, generator: torch.Generator) -> list[int]:
    """n token ids drawn with replacement from a distribution (V,)."""
    return torch.multinomial(view_probs, n, replacement=True, generator=generator).tolist()


def _label(token: str) -> str:
    return repr(token)[1:-1] if token.strip() else repr(token)


class TemperatureWidget(widgets.VBox):
    """T slider (lm-main-control), top-k and top-p sliders, resample button; bars and samples update in place."""

    def __init__(self, logits: torch.Tensor, symbols: list[str], context: str = "", n_bars: int = 30,
                 n_samples: int = 40, temperature: float = 1.0, seed: int = 0):
        self.logits = torch.as_tensor(logits).detach().float().cpu().flatten()  # (V,): computed once, reused
        if len(symbols) != self.logits.numel():
            raise ValueError(f"need one symbol per logit: {len(symbols)} symbols for {self.logits.numel()} logits")
        self.symbols, self.n_bars, self.n_samples = symbols, min(n_bars, self.logits.numel()), n_samples
        self.generator = torch.Generator().manual_seed(seed)
        self.temperature_slider = widgets.FloatLogSlider(value=temperature, base=10, min=-2, max=1, step=0.05,
                                                         description="T", readout_format=".2f")
        self.temperature_slider.add_class("lm-main-control")
        self.top_k_slider = widgets.IntSlider(value=0, min=0, max=self.logits.numel(), description="top-k (0=off)")
        self.top_p_slider = widgets.FloatSlider(value=1.0, min=0.05, max=1.0, step=0.05, description="top-p")
        self.resample_button = widgets.Button(description="new samples")
        self.info = widgets.HTML()
        self.samples_box = widgets.HTML()
        self.canvas = FigureWidget(figsize=(11, 4), dpi=72)
        self.canvas.image.add_class("lm-figure")
        self._build_figure(context)
        for control in (self.temperature_slider, self.top_k_slider, self.top_p_slider):
            control.observe(lambda change: self.update(), names="value")
        self.resample_button.on_click(lambda button: self.update())
        controls = widgets.HBox([self.temperature_slider, self.top_k_slider, self.top_p_slider, self.resample_button])
        super().__init__([controls, self.info, self.canvas.image, self.samples_box])
        self.add_class("lm-temperature-widget")
        self.update()

    def _build_figure(self, context: str) -> None:
        ax = self.canvas.subplots()
        view = temperature_view(self.logits, 1.0, n_bars=self.n_bars)
        self.bars = ax.bar(range(self.n_bars), np.zeros(self.n_bars), color=KEPT_COLOUR)
        ax.set_xticks(range(self.n_bars), [_label(self.symbols[i]) for i in view.order])
        ax.set_ylim(0, 1)
        ax.set_ylabel("probability")
        ax.set_title(f"next token after {context[-30:]!r}" if context else "next-token distribution")
        self.cutoff_line = ax.axvline(-0.5, color="crimson", linestyle="--", linewidth=2)
        self.axes = ax
        self.blitter = Blitter(self.canvas)  # the axis stays fixed (0 to 1): a change redraws bars and cut-off only

    def settings(self) -> tuple[float, int | None, float | None]:
        """(T, k or None, p or None) from the controls."""
        k = int(self.top_k_slider.value) or None
        p = float(self.top_p_slider.value)
        return float(self.temperature_slider.value), k, (p if p < 1.0 else None)

    def update(self) -> TemperatureView:
        """Re-weight the stored logits with the current T, k, p; redraw bars, cut-off and samples in place."""
        temperature, k, p = self.settings()
        view = temperature_view(self.logits, temperature, k, p, self.n_bars)
        for bar, height, kept in zip(self.bars, view.probs, view.kept):
            bar.set_height(float(height))
            bar.set_color(KEPT_COLOUR if kept else CUT_COLOUR)
        cut = view.n_kept - 0.5
        self.cutoff_line.set_xdata([cut, cut])
        self.cutoff_line.set_visible(view.n_kept < self.n_bars)
        self.blitter.refresh([*self.bars, self.cutoff_line])
        full = next_token_probs(self.logits, temperature, k, p)  # (V,)
        samples = draw_samples(full, self.n_samples, self.generator)
        self.samples_box.value = "<b>samples:</b> <code>" + " ".join(_label(self.symbols[i]) for i in samples) + "</code>"
        self.info.value = f"T = {temperature:.2f} | kept tokens: {view.n_kept} | entropy {view.entropy:.2f} nats"
        self.last_view, self.last_samples = view, samples
        return view


def temperature_widget(model, tokenizer, context: str, **kwargs) -> TemperatureWidget:
    """Run `model` once on `context` and return the explorer of its next-token distribution."""
    ids = tokenizer.encode(context)
    if not ids:
        raise ValueError("the context is empty: type at least one character")
    if model.context_length is not None:
        ids = ids[-model.context_length :]
    with torch.no_grad():
        logits = model(torch.tensor([ids], device=model.device))[0, -1].cpu()  # (V,)
    return TemperatureWidget(logits, list(tokenizer.vocab), context, **kwargs)
