"""Figures readable from the back row: one style for the whole course, and a few shared plots."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np

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


# Fonts with CJK glyphs, the first installed one wins: Linux (Noto / Source Han, WenQuanYi, AR PL),
# macOS (PingFang, Hiragino, Heiti), Windows (Microsoft YaHei, SimHei, DengXian).
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "PingFang SC",
             "Hiragino Sans GB", "Heiti SC", "STHeiti", "Microsoft YaHei", "DengXian", "SimHei",
             "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Noto Sans CJK JP", "Noto Serif CJK SC",
             "AR PL UMing CN", "AR PL UKai CN")


def cjk_font() -> str | None:
    """The name of the first installed font of CJK_FONTS, or None when none is installed."""
    from matplotlib import font_manager

    available = {f.name for f in font_manager.fontManager.ttflist}
    return next((family for family in CJK_FONTS if family in available), None)


def use_lecture_style() -> None:
    """Large fonts, thick lines, light grids and a CJK-capable font: call once at the top of a notebook."""
    mpl.rcParams.update(LECTURE_STYLE)
    family = cjk_font()  # Chinese labels (notebook 12, the glossary terms) draw as boxes without one
    if family is not None and family not in mpl.rcParams["font.sans-serif"][:1]:
        mpl.rcParams["font.sans-serif"] = [family, *mpl.rcParams["font.sans-serif"]]
    mpl.rcParams["axes.unicode_minus"] = False  # CJK fonts often lack U+2212, the minus sign matplotlib uses


def plot_history(history, ax=None, label: str = "", smooth: int = 20):
    """Training (smoothed) and validation loss against step on `ax`; returns the axes."""
    import matplotlib.pyplot as plt

    ax = ax or plt.gca()
    prefix = f"{label} " if label else ""
    ax.plot(history.steps, history.smoothed_train_loss(smooth), label=f"{prefix}train", alpha=0.8)
    if history.val_loss:
        ax.plot(history.val_steps, history.val_loss, "o-", label=f"{prefix}validation")
    ax.set_xlabel("step")
    ax.set_ylabel("loss (nats/token)")
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
