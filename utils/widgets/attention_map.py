"""Attention-map explorer: type a text, pick a layer and a head (or all heads); a heatmap with token labels.

The model runs once per text (`AttentionMapCache` keeps every layer's and head's weights);
changing the layer or the head only picks another slice of the cached weights and updates
the existing image in place. The logic is plain functions; `AttentionWidget` is the thin
ipywidgets layer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import torch

from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget

ALL_HEADS = -1


def token_label(symbol: str) -> str:
    """A visible label for a token: spaces as '␣', line breaks and tabs escaped."""
    if symbol == " ":
        return "␣"
    return repr(symbol)[1:-1] or "∅"


@dataclass
class AttentionMaps:
    """Every layer's and head's attention weights for one text."""

    text: str
    tokens: list[str]
    weights: np.ndarray  # (L, H, T, T): weights[l, h, i, j] = how much query i reads key j

    @property
    def n_layers(self) -> int:
        return self.weights.shape[0]

    @property
    def n_heads(self) -> int:
        return self.weights.shape[1]


@torch.no_grad()
def compute_attention_maps(model, tokenizer, text: str, max_tokens: int | None = None) -> AttentionMaps:
    """Run `model.forward_with_attention` once on `text` (its last tokens if too long); return all weights."""
    if not text:
        raise ValueError("the text is empty: type at least one character")
    ids = tokenizer.encode(text)  # ValueError names unknown symbols
    limits = [n for n in (max_tokens, model.context_length) if n is not None]
    if limits:
        ids = ids[-min(limits):]
    idx = torch.tensor([ids], dtype=torch.long, device=model.device)  # (1, T)
    was_training = model.training
    model.eval()
    try:
        _, per_layer = model.forward_with_attention(idx)  # list of (1, H, T, T)
    finally:
        model.train(was_training)
    weights = torch.stack([w[0] for w in per_layer]).float().cpu().numpy()  # (L, H, T, T)
    tokens = [tokenizer.vocab[i] for i in ids]
    return AttentionMaps(tokenizer.decode(ids), tokens, weights)


def head_map(maps: AttentionMaps, layer: int, head: int) -> np.ndarray:
    """The (T, T) weights of one head of one layer."""
    if not 0 <= layer < maps.n_layers:
        raise ValueError(f"layer must lie in 0 .. {maps.n_layers - 1}, got {layer}")
    if not 0 <= head < maps.n_heads:
        raise ValueError(f"head must lie in 0 .. {maps.n_heads - 1}, got {head}")
    return maps.weights[layer, head]


class AttentionMapCache:
    """Attention maps by text: the model runs only for a text not seen before."""

    def __init__(self, model, tokenizer, max_tokens: int | None = None):
        self.model, self.tokenizer, self.max_tokens = model, tokenizer, max_tokens
        self.maps: dict[str, AttentionMaps] = {}
        self.model_runs = 0

    def get(self, text: str) -> AttentionMaps:
        """The maps of `text`, computed on first use."""
        if text not in self.maps:
            self.maps[text] = compute_attention_maps(self.model, self.tokenizer, text, self.max_tokens)
            self.model_runs += 1
        return self.maps[text]


def grid_shape(n_heads: int) -> tuple[int, int]:
    """Rows and columns of the all-heads grid."""
    cols = math.ceil(math.sqrt(n_heads))
    return math.ceil(n_heads / cols), cols


class AttentionWidget(widgets.VBox):
    """Text box, layer selector, head selector (lm-main-control, with 'all heads'); one figure updated in place."""

    def __init__(self, model, tokenizer, text: str, max_tokens: int | None = 48, figsize=(7.5, 6.5), dpi: int = 72):
        self.cache = AttentionMapCache(model, tokenizer, max_tokens)
        maps = self.cache.get(text)
        self.text_box = widgets.Text(value=text, description="text", continuous_update=False,
                                     layout=widgets.Layout(width="480px"))
        self.layer_selector = widgets.Dropdown(options=[(f"layer {l}", l) for l in range(maps.n_layers)],
                                               value=0, description="layer")
        self.head_selector = widgets.Dropdown(
            options=[("all heads", ALL_HEADS)] + [(f"head {h}", h) for h in range(maps.n_heads)],
            value=0, description="head")
        self.head_selector.add_class("lm-main-control")
        self.message = widgets.HTML()
        self.canvas = FigureWidget(figsize=figsize, dpi=dpi)
        self.canvas.image.add_class("lm-figure")
        self.canvas.figure.set_layout_engine("none")  # fixed axes positions: single view and grid share one figure
        self.blitter = Blitter(self.canvas)  # layer/head changes redraw only the images and the title
        self._build_figure(maps.n_heads)
        self.maps: AttentionMaps | None = None
        self.text_box.observe(lambda change: self.update(text=change["new"]), names="value")
        self.layer_selector.observe(lambda change: self.update(), names="value")
        self.head_selector.observe(lambda change: self.update(), names="value")
        controls = widgets.HBox([self.head_selector, self.layer_selector])
        super().__init__([self.text_box, controls, self.message, self.canvas.image])
        self.add_class("lm-attention-widget")
        self.update(text=text)

    def _build_figure(self, n_heads: int) -> None:
        figure = self.canvas.figure
        self.single_ax = figure.add_axes((0.13, 0.13, 0.72, 0.78))
        self.single_image = self.single_ax.imshow(np.zeros((2, 2)), vmin=0, vmax=1, cmap="viridis",
                                                  interpolation="nearest", aspect="auto")
        self.single_ax.grid(False)
        self.single_ax.set_xlabel("key (attended to)")
        self.single_ax.set_ylabel("query (attending)")
        self.colorbar_ax = figure.add_axes((0.88, 0.13, 0.03, 0.78))
        figure.colorbar(self.single_image, cax=self.colorbar_ax)
        rows, cols = grid_shape(n_heads)
        self.grid_axes, self.grid_images = [], []
        for head in range(n_heads):
            r, c = divmod(head, cols)
            ax = figure.add_axes((0.04 + c * 0.82 / cols, 0.04 + (rows - 1 - r) * 0.9 / rows,
                                  0.82 / cols - 0.03, 0.9 / rows - 0.06))
            image = ax.imshow(np.zeros((2, 2)), vmin=0, vmax=1, cmap="viridis", interpolation="nearest", aspect="auto")
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
            ax.set_title(f"head {head}", fontsize=11)
            self.grid_axes.append(ax)
            self.grid_images.append(image)

    def update(self, text: str | None = None, layer: int | None = None, head: int | None = None) -> np.ndarray | None:
        """Redraw: a new text runs the model once (cached); a layer or head change only re-slices. Returns the drawn weights."""
        if text is not None and (self.maps is None or text != self.maps.text):
            try:
                self.maps = self.cache.get(text)
            except ValueError as error:
                self.message.value = f"<b>cannot read this text:</b> {error}"
                return None
            self._set_tokens(self.maps.tokens)
        layer = self.layer_selector.value if layer is None else layer
        head = self.head_selector.value if head is None else head
        self.message.value = ""
        drawn = self.maps.weights[layer] if head == ALL_HEADS else head_map(self.maps, layer, head)
        self._draw(layer, head, drawn)
        return drawn

    def _set_tokens(self, tokens: list[str]) -> None:
        T = len(tokens)
        labels = [token_label(t) for t in tokens]
        extent = (-0.5, T - 0.5, T - 0.5, -0.5)
        self.single_image.set_extent(extent)
        fontsize = 11 if T <= 24 else 8
        self.single_ax.set_xticks(range(T), labels, rotation=90, fontsize=fontsize)
        self.single_ax.set_yticks(range(T), labels, fontsize=fontsize)
        for image in self.grid_images:
            image.set_extent(extent)
        self.blitter.invalidate()

    def _draw(self, layer: int, head: int, drawn: np.ndarray) -> None:
        grid = head == ALL_HEADS
        for ax in (self.single_ax, self.colorbar_ax):
            ax.set_visible(not grid)
        for ax in self.grid_axes:
            ax.set_visible(grid)
        if grid:
            for image, matrix in zip(self.grid_images, drawn):
                image.set_data(matrix)
            self.blitter.refresh(self.grid_images, key="grid")
        else:
            self.single_image.set_data(drawn)
            self.single_ax.set_title(f"layer {layer}, head {head}")
            self.blitter.refresh([self.single_image, self.single_ax.title], key="single")


def attention_widget(model, tokenizer, text: str, max_tokens: int | None = 48) -> AttentionWidget:
    """The attention-map explorer for `model` (a TransformerLM) on `text`, ready to display."""
    return AttentionWidget(model, tokenizer, text, max_tokens=max_tokens)
