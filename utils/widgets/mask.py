"""Mask explorer: toggle the causal mask between two already-trained models and see what changes.

Left: the chosen model's attention map (last layer, mean over heads) on the prefix typed.
Right: both models' validation loss curves, the chosen one bold. Below: text each model
generates from the prefix. Toggling never trains anything: both models were trained before
the widget was built; their outputs per prefix are computed once and cached (`mask_view`).
A toggle redraws only the attention image, the title and the two curves over a saved
background (utils.widgets.blit); a new prefix (new axis labels) redraws the whole figure.
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import torch

from utils.copy_failure import mean_attention, next_position_share
from utils.sampling import generate
from utils.training import TrainHistory
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget

CHOICES = {"causal mask on": "masked", "mask off": "unmasked"}
MAX_PREFIX = 48


@dataclass
class MaskView:
    """What one model shows for one prefix."""

    tokens: list[str]  # the prefix's symbols (axis labels)
    attention: np.ndarray  # (T, T), last layer, mean over heads
    next_share: float  # share of rows looking one step ahead
    generated: str  # the sampled continuation


def mask_view(model, tokenizer, prefix: str, new_tokens: int = 60, seed: int = 0) -> MaskView:
    """Attention map and a sampled continuation of `prefix` by `model` (plain function, no widget)."""
    if not prefix:
        raise ValueError("the prefix is empty: type at least two characters")
    ids = torch.tensor(tokenizer.encode(prefix[-MAX_PREFIX:]), dtype=torch.long)  # (T,)
    attention = mean_attention(model, ids)  # (T, T)
    share = next_position_share(attention) if ids.numel() > 1 else 0.0
    out = generate(model, ids, new_tokens, generator=torch.Generator().manual_seed(seed))[0, ids.numel() :]
    return MaskView(list(tokenizer.split(prefix[-MAX_PREFIX:])), attention.numpy(), share, tokenizer.decode(out.tolist()))


class MaskWidget(widgets.VBox):
    """Mask toggle (lm-main-control) and a prefix box; attention map, loss curves and generated text update in place."""

    def __init__(self, models: dict, histories: dict[str, TrainHistory], tokenizer, prefix: str = "The ",
                 new_tokens: int = 60):
        if set(models) != {"masked", "unmasked"} or set(histories) != {"masked", "unmasked"}:
            raise ValueError("give models and histories for exactly the keys 'masked' and 'unmasked'")
        self.models, self.histories, self.tokenizer, self.new_tokens = models, histories, tokenizer, new_tokens
        self.cache: dict[tuple[str, str], MaskView] = {}
        self.toggle = widgets.ToggleButtons(options=list(CHOICES), value="causal mask on", description="mask")
        self.toggle.add_class("lm-main-control")
        self.prefix_box = widgets.Text(value=prefix, description="prefix", continuous_update=False)
        self.info = widgets.HTML()
        self.texts = widgets.HTML()
        self.canvas = FigureWidget(figsize=(12, 4.5), dpi=72)
        self.canvas.image.add_class("lm-figure")
        self._build_figure()
        self.blitter = Blitter(self.canvas)
        self.labelled_prefix: str | None = None
        self.toggle.observe(lambda change: self.update(), names="value")
        self.prefix_box.observe(lambda change: self.update(), names="value")
        super().__init__([widgets.HBox([self.toggle, self.prefix_box]), self.info, self.canvas.image, self.texts])
        self.add_class("lm-mask-widget")
        self.update()

    def _build_figure(self) -> None:
        self.ax_attention, self.ax_loss = self.canvas.subplots(1, 2)
        self.image = self.ax_attention.imshow(np.zeros((2, 2)), vmin=0, vmax=1, cmap="viridis", interpolation="nearest")
        self.ax_attention.grid(False)
        self.ax_attention.set_xlabel("key (read) position j")
        self.ax_attention.set_ylabel("query position i")
        self.curves = {}
        for name, history in self.histories.items():
            steps = history.val_steps or history.steps
            values = history.val_loss or history.smoothed_train_loss()
            self.curves[name] = self.ax_loss.plot(steps, values, "o-", label=name)[0]
        self.ax_loss.set_xlabel("step")
        self.ax_loss.set_ylabel("validation loss (nats/char)")
        self.ax_loss.legend()

    def view(self, name: str, prefix: str) -> MaskView:
        """The (cached) view of model `name` on `prefix`."""
        key = (name, prefix)
        if key not in self.cache:
            self.cache[key] = mask_view(self.models[name], self.tokenizer, prefix, self.new_tokens)
        return self.cache[key]

    def update(self) -> MaskView:
        """Show the chosen model: its attention map, its loss curve in bold, both generations."""
        chosen, prefix = CHOICES[self.toggle.value], self.prefix_box.value
        try:
            views = {name: self.view(name, prefix) for name in self.models}
        except ValueError as error:
            self.info.value = f"<span style='color:crimson'>{error}</span>"
            return None
        view = views[chosen]
        T = len(view.tokens)
        if prefix != self.labelled_prefix:  # new axis labels and extent: the background must be redrawn
            self.image.set_extent((-0.5, T - 0.5, T - 0.5, -0.5))
            labels = [repr(s)[1:-1] or " " for s in view.tokens]
            self.ax_attention.set_xticks(range(T), labels, rotation=90)
            self.ax_attention.set_yticks(range(T), labels)
            self.labelled_prefix = prefix
            self.blitter.invalidate()
        self.image.set_data(view.attention)
        self.ax_attention.title.set_text(f"{chosen}: {view.next_share:.0%} of rows look one step ahead")
        for name, line in self.curves.items():
            line.set_linewidth(4 if name == chosen else 1.5)
            line.set_alpha(1.0 if name == chosen else 0.4)
        self.blitter.refresh([self.image, self.ax_attention.title, *self.curves.values()])
        self.info.value = f"showing the <b>{chosen}</b> model"
        self.texts.value = "".join(
            f"<p><b>{name}</b>{' (shown)' if name == chosen else ''}: <code>{_escape(prefix + v.generated)}</code></p>"
            for name, v in views.items()
        )
        self.last_view = view
        return view


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "⏎")


def mask_widget(models: dict, histories: dict[str, TrainHistory], tokenizer, prefix: str = "The ", **kwargs) -> MaskWidget:
    """The mask explorer for a trained masked/unmasked pair (see utils.copy_failure.train_masked_and_unmasked)."""
    return MaskWidget(models, histories, tokenizer, prefix, **kwargs)
