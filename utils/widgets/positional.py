"""Positional-encoding explorer: choose the encoding, its width and the positions; heatmap, curves, similarity.

The logic is plain functions (`positional_matrix`, `cosine_similarity`, `positional_view`);
`PositionalWidget` only wires ipywidgets controls to them and updates one figure in place.
Encodings shown, each as one vector per position (T, d):
    sinusoidal  the fixed sin/cos table added to the embeddings;
    learned     a learned table (a trained model's, or a fresh one: noise before training);
    rotary      a constant vector rotated by RoPE at each position, so the similarity of two
                positions depends on their offset only.
"""

from __future__ import annotations

from dataclasses import dataclass

import ipywidgets as widgets
import numpy as np
import torch

from utils.positional import LearnedPositionalEmbedding, apply_rotary, rotary_cos_sin, sinusoidal_encoding
from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget

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
        self.kind_selector = widgets.Dropdown(options=list(WIDGET_KINDS), value=kind, description="encoding")
        self.kind_selector.add_class("lm-main-control")
        self.positions_slider = widgets.IntSlider(value=min(n_positions, max_positions), min=4, max=max_positions,
                                                  step=4, description="positions", continuous_update=False)
        self.d_slider = widgets.IntSlider(value=min(d, max_d), min=4, max=max_d, step=2, description="dimensions",
                                          continuous_update=False)
        self.dims_box = widgets.Text(value="0, 1, 6, 7", description="curves of dims",
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
        ax_heat.set_xlabel("dimension")
        ax_heat.set_ylabel("position")
        self.lines = [ax_curves.plot([], [], label=" ")[0] for _ in range(MAX_CURVES)]
        ax_curves.set_xlabel("position")
        ax_curves.set_ylabel("value / max |value|")
        ax_curves.set_ylim(-1.1, 1.1)
        self.legend = None
        self.sim = ax_sim.imshow(np.zeros((2, 2)), aspect="auto", cmap="viridis", vmin=-1, vmax=1,
                                 interpolation="nearest")
        ax_sim.set_xlabel("position j")
        ax_sim.set_ylabel("position i")
        ax_sim.set_title("cosine similarity")
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
                self.message.value = "<b>curves of dims</b>: give whole numbers separated by commas, e.g. 0, 1, 6"
                return None
        try:
            view = positional_view(kind, n_positions, d, curve_dims, self.learned_table)
        except ValueError as error:
            self.message.value = f"<b>cannot draw:</b> {error}"
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
        ax_heat.set_title(f"{kind}: {T} positions x {d} dims, max |value| {scale:.2f}", fontsize=12)
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
                self.lines[index].set_label(f"dim {dim}")
            ax_curves.legend(handles=[line for line in self.lines if line.get_visible()], loc="upper right",
                             fontsize=9)
            self.blitter.invalidate()
        self.blitter.refresh([self.heat, self.sim, ax_heat.title, *self.lines])
        self.canvas.figure.set_layout_engine("none")  # keep the first layout: later redraws skip the layout pass


def positional_widget(n_positions: int = 64, d: int = 64, kind: str = "sinusoidal",
                      learned_table: torch.Tensor | None = None) -> PositionalWidget:
    """The positional-encoding explorer, ready to display (the last expression of a cell)."""
    return PositionalWidget(n_positions=n_positions, d=d, kind=kind, learned_table=learned_table)
