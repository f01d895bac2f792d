"""Figures readable from the back row: one style for the whole course, and a few shared plots."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np

from utils.fonts import register_cjk_font
from utils.i18n.text import tr

LECTURE_STYLE = {
    "figure.figsize": (10, 5),
    "figure.dpi": 90,
    "font.size": 15,
    "axes.titlesize": 17,
    "axes.labelsize": 15,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "lines.linewidth": 2.5,
    "lines.markersize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.constrained_layout.use": True,
}


def use_lecture_style() -> None:
    """Large fonts, thick lines, light grids and the CJK fallback font: call once at the top of a notebook."""
    mpl.rcParams.update(LECTURE_STYLE)
    register_cjk_font()  # again, in case rcParams were reset since `import utils` (utils/fonts.py)


def plot_history(history, ax=None, label: str = "", smooth: int = 20):
    """Training (smoothed) and validation loss against step on `ax`; returns the axes."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    train, validation = (tr("{model} train", model=label), tr("{model} validation", model=label)) if label \
        else (tr("train"), tr("validation"))
    ax.plot(history.steps, history.smoothed_train_loss(smooth), label=train, alpha=0.8)
    if history.val_loss:
        ax.plot(history.val_steps, history.val_loss, "o-", label=validation)
    ax.set_xlabel(tr("step"))
    ax.set_ylabel(tr("loss (nats/token)"))
    ax.legend()
    return ax


def heatmap(ax, matrix, xlabels: Sequence[str] | None = None, ylabels: Sequence[str] | None = None,
            title: str = "", cmap: str = "viridis", vmin: float | None = None, vmax: float | None = None,
            colorbar: bool = True):
    """Draw `matrix` (rows x cols) with token labels; returns the AxesImage (update it with set_data)."""
    matrix = np.asarray(matrix, dtype=float)
    image = ax.imshow(matrix, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", interpolation="nearest")
    ax.grid(False)
    if xlabels is not None:
        ax.set_xticks(range(len(xlabels)), [repr(s)[1:-1] or " " for s in xlabels], rotation=90)
    if ylabels is not None:
        ax.set_yticks(range(len(ylabels)), [repr(s)[1:-1] or " " for s in ylabels])
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
    return image
