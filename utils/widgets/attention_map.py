"""Attention-map explorer: point at a query token and see, on the text itself, which tokens it reads.

The model runs once per text (`AttentionMapCache` keeps every layer's and head's weights, for
the trained model and, if given, an untrained one of the same shape). The weights of all
layers, heads and models go to the browser once, as one uint8 array (`quantize_weights`);
hovering or clicking a token, the arrow keys, the layer, head and model selectors and the
all-heads thumbnails are handled there (static/attention_map.js), also in the static site.
Only a new text goes back to the kernel, which runs the model(s) and sends the new array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import anywidget
import numpy as np
import torch
import traitlets

from utils.i18n.text import mark, tr
from utils.widgets.view_text import view_module, view_text

ALL_HEADS = -1
STATIC = Path(__file__).resolve().parent / "static"
VIEW_TEXT = (  # what static/attention_map.js writes (lmSay)
    mark("text"), mark("your text (Enter runs the model)"), mark("run the model"), mark("weights"), mark("layer"),
    mark("head"), mark("tokens: point at one, or use the arrow keys, to see what it reads"), mark("weight"),
    mark("mean of all heads"), mark("head {head}"),
    mark("{model} weights, layer {layer}, {heads}: what token {query} ({label}) reads"),
    mark(" (grey: later tokens, which it cannot see)"), mark("rows: queries, columns: keys"),
    mark("head {head}: show it large"), mark("layer {layer}"), mark("all heads"), mark("{model} weights"),
    mark("running the model ..."),
)


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
        raise ValueError(tr("the text is empty: type at least one character"))
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


def query_row(maps: AttentionMaps, layer: int, head: int, query: int) -> np.ndarray:
    """What query token `query` reads: (T,) weights of one head, or the mean over heads for ALL_HEADS."""
    if not 0 <= query < len(maps.tokens):
        raise ValueError(f"query must lie in 0 .. {len(maps.tokens) - 1}, got {query}")
    if head == ALL_HEADS:
        head_map(maps, layer, 0)  # checks the layer
        return maps.weights[layer, :, query].mean(axis=0)
    return head_map(maps, layer, head)[query]


def quantize_weights(weights: np.ndarray) -> bytes:
    """Weights in [0, 1] as uint8 bytes (round(255 w)), C order: what the browser decodes (error <= 1/510)."""
    weights = np.asarray(weights, dtype=np.float32)
    if weights.size and (weights.min() < -1e-6 or weights.max() > 1 + 1e-6):
        raise ValueError(f"attention weights must lie in [0, 1], got {weights.min()} .. {weights.max()}")
    return np.round(np.clip(weights, 0, 1) * 255).astype(np.uint8).tobytes()


def dequantize_weights(data: bytes, shape: tuple[int, ...]) -> np.ndarray:
    """The inverse of quantize_weights: float32 array of `shape`."""
    return np.frombuffer(data, dtype=np.uint8).reshape(shape).astype(np.float32) / 255


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


class AttentionWidget(anywidget.AnyWidget):
    """Head view: text box, model / layer / head (lm-main-control) selectors, tokens shaded by the chosen query's weights."""

    _esm = view_module("attention_map.js")
    _css = STATIC / "widgets.css"
    text = traitlets.Unicode("").tag(sync=True)  # the student's text: a change runs the model(s) in the kernel
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)  # (T,) visible labels
    variants = traitlets.List(traitlets.Unicode()).tag(sync=True)  # model names, e.g. ["trained", "untrained"]
    shape = traitlets.List(traitlets.Int()).tag(sync=True)  # [M, L, H, T]
    weights = traitlets.Bytes(b"").tag(sync=True)  # quantize_weights of (M, L, H, T, T)
    causal = traitlets.Bool(True).tag(sync=True)
    variant = traitlets.Int(0).tag(sync=True)
    layer = traitlets.Int(0).tag(sync=True)
    head = traitlets.Int(0).tag(sync=True)  # ALL_HEADS: every head as thumbnails
    query = traitlets.Int(-1).tag(sync=True)  # -1: the last token
    message = traitlets.Unicode("").tag(sync=True)
    view_text = traitlets.Dict().tag(sync=True)  # the view's words in the notebook's language (view_text.py)

    def __init__(self, model, tokenizer, text: str, max_tokens: int | None = 48, untrained=None,
                 names: tuple[str, str] = (mark("trained"), mark("untrained"))):
        models = [model] if untrained is None else [model, untrained]
        self.caches = [AttentionMapCache(m, tokenizer, max_tokens) for m in models]
        self.cache = self.caches[0]
        self.maps: list[AttentionMaps] = [cache.get(text) for cache in self.caches]  # ValueError: a bad first text
        shapes = {m.weights.shape[:2] for m in self.maps}
        if len(shapes) != 1:
            raise ValueError(f"the models must have the same layers and heads, got {sorted(shapes)}")
        super().__init__(text=text, variants=[tr(name) for name in names[: len(models)]], message="",
                         view_text=view_text(VIEW_TEXT), **self._payload(self.maps))
        self.add_class("lm-attention-widget")

    @property
    def model_runs(self) -> int:
        """How often a model ran (all models together)."""
        return sum(cache.model_runs for cache in self.caches)

    @staticmethod
    def _payload(maps: list[AttentionMaps]) -> dict:
        stacked = np.stack([m.weights for m in maps])  # (M, L, H, T, T)
        M, L, H, T, _ = stacked.shape
        causal = bool(np.allclose(np.triu(stacked, 1), 0))
        return {"tokens": [token_label(t) for t in maps[0].tokens], "shape": [M, L, H, T],
                "weights": quantize_weights(stacked), "causal": causal, "query": T - 1}

    @traitlets.validate("layer")
    def _check_layer(self, proposal):
        if hasattr(self, "maps") and not 0 <= proposal["value"] < self.maps[0].n_layers:
            raise traitlets.TraitError(f"layer must lie in 0 .. {self.maps[0].n_layers - 1}, got {proposal['value']}")
        return proposal["value"]

    @traitlets.validate("head")
    def _check_head(self, proposal):
        if hasattr(self, "maps") and not (proposal["value"] == ALL_HEADS or 0 <= proposal["value"] < self.maps[0].n_heads):
            raise traitlets.TraitError(f"head must be ALL_HEADS or lie in 0 .. {self.maps[0].n_heads - 1}, got {proposal['value']}")
        return proposal["value"]

    @traitlets.observe("text")
    def _on_text(self, change) -> None:
        if not hasattr(self, "caches"):
            return
        try:
            maps = [cache.get(change["new"]) for cache in self.caches]
        except ValueError as error:
            self.message = ""  # the same message again would send no change: the view's "running" would stay
            self.message = tr("cannot read this text: {error}", error=error)
            return
        self.maps = maps
        with self.hold_sync():
            for name, value in self._payload(maps).items():
                setattr(self, name, value)
            self.message = ""

    def shown_row(self) -> np.ndarray:
        """(T,) weights the view shades for the current model, layer, head and query."""
        maps = self.maps[self.variant]
        query = self.query if self.query >= 0 else len(maps.tokens) - 1
        return query_row(maps, self.layer, self.head, query)


def attention_widget(model, tokenizer, text: str, max_tokens: int | None = 48, untrained=None) -> AttentionWidget:
    """The attention explorer for `model` (forward_with_attention) on `text`; `untrained`: the same model before training."""
    return AttentionWidget(model, tokenizer, text, max_tokens=max_tokens, untrained=untrained)
