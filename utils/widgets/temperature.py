"""Temperature, top-k and top-p explorer: the next-token distribution as bars, recomputed in the browser.

The model runs once, when the widget is built: its logits (V,) go to the browser once, and
moving T, k or p re-weights them there (static/temperature.js), with no kernel round trip, so
the view also moves in the exported static site. The JS follows `utils.sampling.next_token_probs`
(temperature, then top-k, then top-p); a browser test holds the two equal on the same logits.
Bars keep a fixed order (by logit, which no temperature changes); kept tokens are drawn at their
sampling probability, removed ones greyed at their tempered probability; the axis is linear,
log or cumulative (with p marked). Samples are drawn in the browser with a seeded generator
(`mulberry32`, mirrored here) from the whole distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import anywidget
import numpy as np
import torch
import traitlets

from utils.i18n.text import mark, tr
from utils.sampling import next_token_probs, softmax_with_temperature
from utils.widgets.view_text import view_module, view_text

STATIC = Path(__file__).resolve().parent / "static"
VIEWS = ("linear", "log", "cumulative")
T_MIN, T_MAX = 0.01, 10.0
VIEW_TEXT = (  # what static/temperature.js writes (lmSay)
    mark("temperature (log scale)"), mark("top-k, 0 is off"), mark("top-p, 1 is off"), mark("probability axis"),
    mark("linear axis"), mark("log axis"), mark("cumulative (p marked)"), mark("draw samples"),
    mark("next token after {context}"), mark("next-token distribution"), mark("cumulative probability"),
    mark("probability (log)"), mark("probability"), mark("off"),
    mark("T = {temperature} | kept tokens: {kept} of {total} | entropy {entropy} nats | grey bars: removed, drawn at "
         "their tempered probability"),
    mark("samples (seed {seed}): "),
)


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


def mulberry32(seed: int, n: int) -> list[float]:
    """n uniforms in [0, 1) from the 32-bit mulberry32 generator (the browser's sampler uses the same)."""
    state = seed & 0xFFFFFFFF
    out = []
    for _ in range(n):
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = state
        t = ((t ^ (t >> 15)) * (t | 1)) & 0xFFFFFFFF
        t = (t ^ (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF))) & 0xFFFFFFFF
        out.append(((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296)
    return out


def seeded_samples(probs: torch.Tensor, n: int, seed: int) -> list[int]:
    """n token ids from probs (V,) by inverse CDF on mulberry32(seed): what the browser draws for that seed."""
    cumulative = torch.as_tensor(probs, dtype=torch.float64).flatten().cumsum(0)  # (V,)
    last = int(torch.nonzero(torch.as_tensor(probs).flatten() > 0).max())
    return [min(int(torch.searchsorted(cumulative, u * float(cumulative[-1]), right=True)), last)
            for u in mulberry32(seed, n)]


def token_label(token: str) -> str:
    """A visible label for a token: a space as '␣', line breaks and tabs escaped."""
    if token == " ":
        return "␣"
    return token if token.strip() else repr(token)[1:-1]


class TemperatureWidget(anywidget.AnyWidget):
    """T slider (lm-main-control), top-k and top-p sliders, axis toggle, samples button; all recomputed in the browser."""

    _esm = view_module("temperature.js")
    _css = STATIC / "widgets.css"
    logits = traitlets.List(traitlets.Float()).tag(sync=True)  # (V,) float32 values, sent once
    labels = traitlets.List(traitlets.Unicode()).tag(sync=True)  # (V,) visible token labels
    context = traitlets.Unicode("").tag(sync=True)
    n_bars = traitlets.Int(30).tag(sync=True)
    n_samples = traitlets.Int(40).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    top_k = traitlets.Int(0).tag(sync=True)  # 0: off
    top_p = traitlets.Float(1.0).tag(sync=True)  # 1: off
    view = traitlets.Unicode("linear").tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    view_text = traitlets.Dict().tag(sync=True)  # the view's words in the notebook's language (view_text.py)

    def __init__(self, logits: torch.Tensor, symbols: list[str], context: str = "", n_bars: int = 30,
                 n_samples: int = 40, temperature: float = 1.0, seed: int = 0):
        values = torch.as_tensor(logits).detach().float().cpu().flatten()  # (V,): computed once, reused
        if len(symbols) != values.numel():
            raise ValueError(f"need one symbol per logit: {len(symbols)} symbols for {values.numel()} logits")
        if not torch.isfinite(values).all():
            raise ValueError("the logits must be finite")
        if not T_MIN <= temperature <= T_MAX:
            raise ValueError(f"temperature must lie in [{T_MIN}, {T_MAX}], got {temperature}")
        self.symbols = list(symbols)
        super().__init__(logits=values.tolist(), labels=[token_label(s) for s in symbols], context=context,
                         n_bars=min(n_bars, values.numel()), n_samples=n_samples, temperature=temperature, seed=seed,
                         view_text=view_text(VIEW_TEXT))
        self.add_class("lm-temperature-widget")

    @traitlets.validate("temperature")
    def _check_temperature(self, proposal):
        if not T_MIN * (1 - 1e-9) <= proposal["value"] <= T_MAX * (1 + 1e-9):  # the browser's 10 ** -2 may round
            raise traitlets.TraitError(f"temperature must lie in [{T_MIN}, {T_MAX}] (the slider's range), got {proposal['value']}")
        return proposal["value"]

    @traitlets.validate("top_k")
    def _check_top_k(self, proposal):
        if not 0 <= proposal["value"] <= len(self.logits):
            raise traitlets.TraitError(f"top_k must lie in 0 .. {len(self.logits)} (0 is off), got {proposal['value']}")
        return proposal["value"]

    @traitlets.validate("top_p")
    def _check_top_p(self, proposal):
        if not 0 < proposal["value"] <= 1:
            raise traitlets.TraitError(f"top_p must lie in (0, 1] (1 is off), got {proposal['value']}")
        return proposal["value"]

    @traitlets.validate("view")
    def _check_view(self, proposal):
        if proposal["value"] not in VIEWS:
            raise traitlets.TraitError(f"view must be one of {VIEWS}, got {proposal['value']!r}")
        return proposal["value"]

    def settings(self) -> tuple[float, int | None, float | None]:
        """(T, k or None, p or None) as the browser applies them."""
        return float(self.temperature), (int(self.top_k) or None), (float(self.top_p) if self.top_p < 1.0 else None)

    @property
    def last_view(self) -> TemperatureView:
        """The Python view of the current T, k, p (what the browser shows)."""
        temperature, k, p = self.settings()
        return temperature_view(torch.tensor(self.logits), temperature, k, p, self.n_bars)

    def samples(self) -> list[int]:
        """The token ids the browser shows for the current settings and seed."""
        temperature, k, p = self.settings()
        return seeded_samples(next_token_probs(torch.tensor(self.logits), temperature, k, p), self.n_samples, self.seed)


def temperature_widget(model, tokenizer, context: str, **kwargs) -> TemperatureWidget:
    """Run `model` once on `context` and return the explorer of its next-token distribution."""
    ids = tokenizer.encode(context)
    if not ids:
        raise ValueError(tr("the context is empty: type at least one character"))
    if model.context_length is not None:
        ids = ids[-model.context_length :]
    with torch.no_grad():
        logits = model(torch.tensor([ids], device=model.device))[0, -1].cpu()  # (V,)
    return TemperatureWidget(logits, list(tokenizer.vocab), context, **kwargs)
