"""A matplotlib figure shown as an ipywidgets.Image and re-rendered in place: fast, offline, no pyplot state.

Widgets update the figure's artists (set_data, set_height, set_text) and call refresh();
the new PNG replaces the old one in the same Image widget, so nothing is re-plotted or
re-displayed, and exported HTML keeps the last picture.
"""

from __future__ import annotations

import io

import ipywidgets as widgets
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from utils.plotting import LECTURE_STYLE


class FigureWidget:
    """A Figure drawn to PNG into an ipywidgets.Image; call refresh() after changing artists."""

    def __init__(self, figsize: tuple[float, float] = (9, 4), dpi: int = 80, **subplot_kwargs):
        import matplotlib as mpl

        with mpl.rc_context(LECTURE_STYLE):
            self.figure = Figure(figsize=figsize, dpi=dpi, layout="constrained")
        FigureCanvasAgg(self.figure)
        self.image = widgets.Image(format="png", layout=widgets.Layout(width=f"{int(figsize[0] * dpi)}px"))
        self.subplot_kwargs = subplot_kwargs

    def subplots(self, nrows: int = 1, ncols: int = 1, **kwargs):
        """Create axes on the figure (like plt.subplots, without pyplot)."""
        return self.figure.subplots(nrows, ncols, **{**self.subplot_kwargs, **kwargs})

    def render(self) -> bytes:
        """The figure as PNG bytes."""
        buffer = io.BytesIO()
        self.figure.canvas.print_png(buffer)
        return buffer.getvalue()

    def refresh(self) -> None:
        """Re-render the whole figure into the Image widget (it skips artists a Blitter has marked animated:
        a widget redraws either this way or with utils.widgets.blit.Blitter, not both)."""
        self.image.value = self.render()
