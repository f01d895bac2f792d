"""Positional-encoding explorers: the encodings as heatmap and curves, and what attention sees of them.

`PositionalScoresWidget` (notebook 06; anywidget, drawn in the browser by static/positional.js)
shows, for sinusoidal, learned, relative and rotary positions, the encoding and the score that
position alone contributes against the offset i - j (utils.widgets.position_scores computes
them), with a base slider; every control redraws without the kernel.

The older matplotlib explorer: the logic is plain functions (`positional_matrix`, `cosine_similarity`, `positional_view`);
`PositionalWidget` only wires ipywidgets controls to them and updates one figure in place.
Encodings shown, each as one vector per position (T, d):
    sinusoidal  the fixed sin/cos table added to the embeddings;
    learned     a learned table (a trained model's, or a fresh one: noise before training);
    rotary      a constant vector rotated by RoPE at each position, so the similarity of two
                positions depends on their offset only.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import anywidget
import ipywidgets as widgets
import numpy as np
import torch
import traitlets

from utils.i18n.text import mark, tr
from utils.positional import LearnedPositionalEmbedding, apply_rotary, rotary_cos_sin, sinusoidal_encoding
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget
from utils.widgets.colors import colormap_table
from utils.widgets.position_scores import (BASES, added_offset_scores, fixed_query_key, offset_only_spread,
                                           relative_offset_bias, rotary_offset_scores, rotated_vectors)
from utils.widgets.view_text import view_module, view_text

WIDGET_KINDS = ("sinusoidal", "learned", "rotary")
MAX_CURVES = 4


def positional_matrix(
    kind: str, n_positions: int, d: int, learned_table: torch.Tensor | None = None, seed: int = 0
) -> np.ndarray:
    """One d-dimensional vector per position 0 .. n_positions-1 for encoding `kind`: (T, d)."""
    if kind not in WIDGET_KINDS:
        raise ValueError(f"unknown encoding {kind!r}: use one of {', '.join(WIDGET_KINDS)}")
    if n_positions < 1 or d < 2:
        raise ValueError(f"need at least 1 position and 2 dimensions, got {n_positions} and {d}")
    if kind == "sinusoidal":
        return sinusoidal_encoding(n_positions, d).numpy()
    if kind == "rotary":
        if d % 2:
            raise ValueError(f"rotary rotates pairs of dimensions: d must be even, got {d}")
        cos, sin = rotary_cos_sin(n_positions, d)  # (T, d/2) each
        ones = torch.ones(n_positions, d) / d**0.5  # (T, d): the same unit vector at every position
        return apply_rotary(ones, cos, sin).numpy()  # (T, d)
    if learned_table is None:
        generator_state = torch.random.get_rng_state()
        torch.manual_seed(seed)
        learned_table = LearnedPositionalEmbedding(n_positions, d).embedding.weight.detach()
        torch.random.set_rng_state(generator_state)
    table = learned_table.detach().float().cpu()  # (max_len, d_model)
    if n_positions > table.shape[0] or d > table.shape[1]:
        raise ValueError(
            f"the learned table has {table.shape[0]} positions and {table.shape[1]} dimensions; "
            f"asked for {n_positions} positions and {d} dimensions (it cannot go past its trained length)"
        )
    return table[:n_positions, :d].numpy()


def cosine_similarity(matrix: np.ndarray) -> np.ndarray:
    """Cosine similarity between every pair of rows of `matrix` (T, d): (T, T)."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)  # (T, 1)
    unit = matrix / np.maximum(norms, 1e-12)  # (T, d)
    return unit @ unit.T  # (T, T)


@dataclass
class PositionalView:
    """What the widget draws: the encoding, the curves of chosen dimensions, the similarity."""

    encoding: np.ndarray  # (T, d)
    curve_dims: list[int]
    curves: np.ndarray  # (len(curve_dims), T)
    similarity: np.ndarray  # (T, T)


def positional_view(
    kind: str, n_positions: int, d: int, curve_dims: list[int], learned_table: torch.Tensor | None = None
) -> PositionalView:
    """Everything one redraw needs, computed without any widget."""
    encoding = positional_matrix(kind, n_positions, d, learned_table)  # (T, d)
    dims = [dim for dim in curve_dims if 0 <= dim < d][:MAX_CURVES]
    if not dims:
        raise ValueError(f"choose at least one curve dimension in 0 .. {d - 1}, got {curve_dims}")
    curves = encoding[:, dims].T  # (n_curves, T)
    return PositionalView(encoding, dims, curves, cosine_similarity(encoding))


class PositionalWidget(widgets.VBox):
    """Encoding selector (lm-main-control), width and positions sliders, curve dimensions; one figure updated in place."""

    def __init__(self, n_positions: int = 64, d: int = 64, kind: str = "sinusoidal",
                 learned_table: torch.Tensor | None = None, max_positions: int = 256, max_d: int = 128):
        self.learned_table = learned_table  # None: a fresh (untrained) table; past its size "learned" shows the error
        self.kind_selector = widgets.Dropdown(options=list(WIDGET_KINDS), value=kind, description=tr("encoding"))
        self.kind_selector.add_class("lm-main-control")
        self.positions_slider = widgets.IntSlider(value=min(n_positions, max_positions), min=4, max=max_positions,
                                                  step=4, description=tr("positions"), continuous_update=False)
        self.d_slider = widgets.IntSlider(value=min(d, max_d), min=4, max=max_d, step=2, description=tr("dimensions"),
                                          continuous_update=False)
        self.dims_box = widgets.Text(value="0, 1, 6, 7", description=tr("curves of dims"),
                                     continuous_update=False)
        self.message = widgets.HTML()
        self.canvas = FigureWidget(figsize=(12, 4), dpi=72)
        self.canvas.image.add_class("lm-figure")
        self.blitter = Blitter(self.canvas)  # an encoding change alone redraws only the data artists
        self._frame: tuple | None = None  # what the background depends on: sizes, scale, curve dimensions
        self._build_figure()
        for control in (self.kind_selector, self.positions_slider, self.d_slider, self.dims_box):
            control.observe(lambda change: self.update(), names="value")
        for control, width in ((self.kind_selector, "240px"), (self.dims_box, "300px"),
                               (self.positions_slider, "380px"), (self.d_slider, "380px")):
            control.layout = widgets.Layout(width=width)
            control.style = {"description_width": "110px"}
        controls = widgets.VBox([widgets.HBox([self.kind_selector, self.dims_box]),
                                 widgets.HBox([self.positions_slider, self.d_slider])])
        super().__init__([controls, self.message, self.canvas.image])
        self.add_class("lm-positional-widget")
        self.update()

    def _build_figure(self) -> None:
        ax_heat, ax_curves, ax_sim = self.canvas.subplots(1, 3)
        self.heat = ax_heat.imshow(np.zeros((2, 2)), aspect="auto", cmap="RdBu", vmin=-1, vmax=1,
                                   interpolation="nearest")
        ax_heat.set_xlabel(tr("dimension"))
        ax_heat.set_ylabel(tr("position"))
        self.lines = [ax_curves.plot([], [], label=" ")[0] for _ in range(MAX_CURVES)]
        ax_curves.set_xlabel(tr("position"))
        ax_curves.set_ylabel(tr("value / max |value|"))
        ax_curves.set_ylim(-1.1, 1.1)
        self.legend = None
        self.sim = ax_sim.imshow(np.zeros((2, 2)), aspect="auto", cmap="viridis", vmin=-1, vmax=1,
                                 interpolation="nearest")
        ax_sim.set_xlabel(tr("position j"))
        ax_sim.set_ylabel(tr("position i"))
        ax_sim.set_title(tr("cosine similarity"))
        self.canvas.figure.colorbar(self.sim, ax=ax_sim, shrink=0.8)
        for ax in (ax_heat, ax_sim):
            ax.grid(False)
        self.axes = (ax_heat, ax_curves, ax_sim)

    def update(self, kind: str | None = None, n_positions: int | None = None, d: int | None = None,
               curve_dims: list[int] | None = None) -> PositionalView | None:
        """Redraw for the given settings (None: the controls' values); returns what was drawn."""
        kind = self.kind_selector.value if kind is None else kind
        n_positions = self.positions_slider.value if n_positions is None else n_positions
        d = self.d_slider.value if d is None else d
        if curve_dims is None:
            try:
                curve_dims = [int(part) for part in self.dims_box.value.replace(",", " ").split()]
            except ValueError:
                self.message.value = tr("<b>curves of dims</b>: give whole numbers separated by commas, e.g. 0, 1, 6")
                return None
        try:
            view = positional_view(kind, n_positions, d, curve_dims, self.learned_table)
        except ValueError as error:
            self.message.value = tr("<b>cannot draw:</b> {error}", error=html.escape(str(error)))
            return None
        self.message.value = ""
        self._draw(kind, view)
        return view

    def _draw(self, kind: str, view: PositionalView) -> None:
        T, d = view.encoding.shape
        ax_heat, ax_curves, ax_sim = self.axes
        scale = float(np.abs(view.encoding).max()) or 1.0
        self.heat.set_data(view.encoding)
        self.heat.set_clim(-scale, scale)
        ax_heat.set_title(tr("{kind}: {positions} positions x {dims} dims, max |value| {scale:.2f}", kind=kind,
                             positions=T, dims=d, scale=scale), fontsize=12)
        positions = np.arange(T)
        for index, line in enumerate(self.lines):
            line.set_visible(index < len(view.curve_dims))
            if line.get_visible():
                line.set_data(positions, view.curves[index] / scale)
        self.sim.set_data(view.similarity)
        frame = (T, d, tuple(view.curve_dims))
        if frame != self._frame:  # sizes, limits or legend change: the background must be drawn again
            self._frame = frame
            self.heat.set_extent((-0.5, d - 0.5, T - 0.5, -0.5))
            self.sim.set_extent((-0.5, T - 0.5, T - 0.5, -0.5))
            ax_curves.set_xlim(0, max(T - 1, 1))
            for index, dim in enumerate(view.curve_dims):
                self.lines[index].set_label(tr("dim {dim}", dim=dim))
            ax_curves.legend(handles=[line for line in self.lines if line.get_visible()], loc="upper right",
                             fontsize=9)
            self.blitter.invalidate()
        self.blitter.refresh([self.heat, self.sim, ax_heat.title, *self.lines])
        self.canvas.figure.set_layout_engine("none")  # keep the first layout: later redraws skip the layout pass


def positional_widget(n_positions: int = 64, d: int = 64, kind: str = "sinusoidal",
                      learned_table: torch.Tensor | None = None) -> PositionalWidget:
    """The positional-encoding explorer, ready to display (the last expression of a cell)."""
    return PositionalWidget(n_positions=n_positions, d=d, kind=kind, learned_table=learned_table)


# ---------------------------------------------------------------- what attention sees: browser-side explorer (anywidget)

SCORE_KINDS = ("sinusoidal", "learned", "relative", "rotary")
ROTARY_QUERY_POSITIONS = (63, 127, 255, 511)


def _rounded(array) -> list:
    """A numpy array as nested lists of floats with 4 significant decimals (NaN -> None), for JSON."""
    values = np.asarray(array, dtype=float)
    return [[None if not np.isfinite(v) else round(float(v), 4) for v in row] for row in values]


def positional_scores_data(models: dict, n_positions: int = 64, bases=None, seed: int = 0,
                           query_positions=ROTARY_QUERY_POSITIONS) -> dict:
    """Everything the positional explorer draws, for every encoding and base (plain data; no widget).

    `models`: trained TransformerLMs by positional kind (notebook 06's extrapolation models); the
    sinusoidal and learned views need theirs, relative needs its bias, rotary needs only d_head.
    """
    bases = tuple(BASES if bases is None else bases)
    missing = [kind for kind in ("sinusoidal", "learned", "relative") if kind not in models]
    if missing:
        raise ValueError(f"give a trained model for each of {missing} (notebook 06 trains them as extrapolation_models)")
    if min(query_positions) < n_positions - 1:
        raise ValueError(f"the rotary query positions must be >= n_positions - 1 = {n_positions - 1}, got {query_positions}")
    heads = [tr("head {head}", head=h) for h in range(models["sinusoidal"].config.n_head)]
    dimension, position, sees = tr("dimension"), tr("position"), tr("what attention sees")
    alone = tr("q·k/√d of positions alone")
    sinusoidal = models["sinusoidal"]
    views: dict[str, dict] = {}
    views["sinusoidal"] = {
        "by_base": [{"heat": _rounded(sinusoidal_encoding(n_positions, sinusoidal.config.d_model, base=b)),
                     "scores": _rounded(added_offset_scores(sinusoidal, n_positions, b))} for b in bases],
        "heat_title": tr("PE (position x dimension)"), "heat_xlabel": dimension, "heat_ylabel": position,
        "column_name": tr("dim"), "curve_labels": heads, "scores_ylabel": alone, "scores_title": sees,
        "caption": tr("sinusoidal: position-only inputs through the trained model's first layer, averaged over i"),
        "note": tr("Each curve is one head of the trained sinusoidal model: the inputs PE(0) .. PE({last}) alone go "
                   "through its first LayerNorm, W_Q and W_K; the score q_i·k_j/√d_head is averaged over the queries i "
                   "at each offset i − j. The model was trained with base 10000: other bases feed it encodings it "
                   "never saw.", last=n_positions - 1),
    }
    learned = models["learned"]
    n_learned = min(n_positions, learned.position_embedding.max_len)
    views["learned"] = {
        "heat": _rounded(learned.position_embedding.embedding.weight.detach()[:n_learned]),
        "scores": _rounded(added_offset_scores(learned, n_learned)),
        "heat_title": tr("learned table"), "heat_xlabel": dimension, "heat_ylabel": position,
        "column_name": tr("dim"), "curve_labels": heads, "scores_ylabel": alone, "scores_title": sees,
        "caption": tr("learned: the trained table's {n} vectors through the first layer, averaged over i", n=n_learned),
        "note": tr("The learned table has {n} positions (its training length): there is nothing to show past offset "
                   "{last}. Each curve is one head: the table's rows alone through the first LayerNorm, W_Q and W_K, "
                   "the score averaged over the queries i at each offset.", n=n_learned, last=n_learned - 1),
    }
    bias = relative_offset_bias(models["relative"], n_positions)  # (H, T)
    views["relative"] = {
        "heat": _rounded(bias.T), "scores": _rounded(bias),
        "heat_title": tr("bias b(i − j), offset x head"), "heat_xlabel": tr("head"), "heat_ylabel": tr("offset i − j"),
        "column_name": tr("head"), "curve_labels": heads, "scores_ylabel": tr("bias added to the score"),
        "scores_title": tr("what attention sees: the bias"),
        "caption": tr("relative: the trained bias, the same at every query position"),
        "note": tr("The relative model adds b_h(i − j) to every score: one trained number per head and offset, the "
                   "same for every query position; offsets past {last} share the last value (clipped), which is how "
                   "it reads any length.", last=models["relative"].relative_bias.max_distance - 1),
    }
    d_head = (models["rotary"].config.d_model // models["rotary"].config.n_head) if "rotary" in models else 16
    q, k = fixed_query_key(d_head, seed)
    rotary_by_base = []
    for b in bases:
        rows = rotary_offset_scores(q, k, n_positions, list(query_positions), b)  # (P, T)
        rotary_by_base.append({"heat": _rounded(rotated_vectors(q, n_positions, b)), "scores": _rounded(rows),
                               "spread": offset_only_spread(rows)})
    views["rotary"] = {
        "by_base": rotary_by_base, "query_positions": [int(i) for i in query_positions],  # one curve per position
        "heat_title": tr("q rotated to each position"), "heat_xlabel": dimension, "heat_ylabel": position,
        "column_name": tr("dim"), "curve_labels": [tr("query at i = {i}", i=i) for i in query_positions],
        "scores_ylabel": "(R_i q)·(R_j k)/√d", "scores_title": sees,
        "caption": tr("rotary: one curve per absolute query position; they lie on top of each other"),
        "note": tr("A fixed q and k (random, q ≠ k), q rotated to position i and k to position j = i − offset. The "
                   "{count} curves, for queries at absolute positions {positions}, coincide (largest gap {gap:.1e}): "
                   "the score depends on the offset only. A larger base turns every pair more slowly, so the score "
                   "changes more slowly with the offset.", count=len(query_positions),
                   positions=", ".join(map(str, query_positions)), gap=max(v["spread"] for v in rotary_by_base)),
    }
    return {"bases": list(bases), "kinds": list(SCORE_KINDS), "n_offsets": n_positions, "views": views,
            "colormaps": {"diverging": colormap_table("RdBu_r")}}


STATIC = Path(__file__).with_name("static")


VIEW_TEXT = (  # what static/positional.js writes (lmSay, lmSayHtml)
    mark("curves of dims: give whole numbers separated by commas, e.g. 0, 1, 6"),
    mark("curves of dims: choose dimensions 0 .. {last}"), mark("value / max |value|"), mark("curves of chosen columns"),
    mark("offset i − j"), mark(", base {base}"),
    mark("{kind} positions{base}: heatmap, curves of dimensions {dims}, and the score against the offset"),
    mark("encoding"), mark("positional encoding"), mark("base"), mark("base of the rotation frequencies"),
    mark("curves of dims"), mark("{base} (not used by {kind})"),
)


class PositionalScoresWidget(anywidget.AnyWidget):
    """Encoding selector (lm-main-control), base slider, curve dimensions: heatmap, curves, score against offset.

    All settings redraw in the browser from `data` (precomputed on the base grid); the kernel only
    keeps the chosen values in sync (so Python can read or set them).
    """

    _esm = view_module("svg_figure.js", "positional.js")
    _css = (STATIC / "lm_widgets.css").read_text(encoding="utf-8")
    data = traitlets.Dict().tag(sync=True)
    kind = traitlets.Unicode("rotary").tag(sync=True)
    base_index = traitlets.Int(4).tag(sync=True)
    dims = traitlets.Unicode("0, 1, 6, 7").tag(sync=True)
    view_text = traitlets.Dict().tag(sync=True)  # the view's words in the notebook's language (view_text.py)

    @traitlets.validate("kind")
    def _valid_kind(self, proposal):
        if proposal["value"] not in SCORE_KINDS:
            raise traitlets.TraitError(f"unknown encoding {proposal['value']!r}: use one of {', '.join(SCORE_KINDS)}")
        return proposal["value"]

    @traitlets.validate("base_index")
    def _valid_base(self, proposal):
        if self.data and not 0 <= proposal["value"] < len(self.data["bases"]):
            raise traitlets.TraitError(f"base_index must lie in 0 .. {len(self.data['bases']) - 1}")
        return proposal["value"]

    @property
    def base(self) -> float:
        """The chosen base."""
        return self.data["bases"][self.base_index]


def positional_scores_widget(models: dict, n_positions: int = 64, kind: str = "rotary", base: float = 10000.0,
                             **kwargs) -> "PositionalScoresWidget":
    """The positional explorer with what attention sees, for notebook 06's trained models (last expression of a cell)."""
    data = positional_scores_data(models, n_positions, **kwargs)
    if base not in data["bases"]:
        raise ValueError(f"base {base} is not on the slider's grid {data['bases']}")
    return PositionalScoresWidget(data=data, kind=kind, base_index=data["bases"].index(base),
                                  view_text=view_text(VIEW_TEXT))
