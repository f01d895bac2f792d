"""A picture of the decoder-only Transformer (Pre-LN), drawn with matplotlib boxes and arrows, for notebook 07."""

from __future__ import annotations

from utils.i18n.text import mark, tr

# (label, colour) from the input at the bottom to the output at the top; "+" marks a residual sum
_LAYERS = [  # labels translated when drawn (tr)
    (mark("token ids (B, T)"), "#eeeeee"),
    (mark("token embedding  (B, T, D)"), "#cfe2f3"),
    ("LayerNorm", "#fff2cc"),
    (mark("causal multi-head attention\n(rotary positions on q, k)"), "#f4cccc"),
    ("+", "white"),
    ("LayerNorm", "#fff2cc"),
    (mark("feed-forward: D → 4D → GELU → D"), "#d9ead3"),
    ("+", "white"),
    (mark("final LayerNorm"), "#fff2cc"),
    (mark("unembedding W_U  (B, T, V)"), "#cfe2f3"),
    (mark("softmax → p(next token)"), "#eeeeee"),
]


def draw_decoder_only(ax, n_layer: int) -> None:
    """Draw the decoder-only Transformer on `ax`: the block (repeated n_layer times) framed, residual paths on the left."""
    if n_layer < 1:
        raise ValueError(f"n_layer must be at least 1, got {n_layer}")
    step = 1.0
    ys = [i * step for i in range(len(_LAYERS))]
    for (label, colour), y in zip(_LAYERS, ys):
        if label == "+":
            ax.add_patch(_circle(y))
            ax.text(0, y, "+", ha="center", va="center", fontsize=14, fontweight="bold")
        else:
            ax.text(0, y, tr(label), ha="center", va="center", fontsize=11,
                    bbox=dict(boxstyle="round,pad=0.35", facecolor=colour, edgecolor="black"))
    for y0, y1 in zip(ys[:-1], ys[1:]):
        ax.annotate("", xy=(0, y1 - 0.32), xytext=(0, y0 + 0.32), arrowprops=dict(arrowstyle="->", lw=1.4))
    for start, plus in ((1, 4), (4, 7)):  # residual: from the stream before LayerNorm to the sum
        ax.annotate("", xy=(-0.12, ys[plus]), xytext=(-1.6, ys[plus]), arrowprops=dict(arrowstyle="->", lw=1.2))
        ax.plot([-1.6, -1.6], [ys[start] + 0.5, ys[plus]], color="black", lw=1.2)
        ax.plot([-1.6, 0], [ys[start] + 0.5, ys[start] + 0.5], color="black", lw=1.2)
        ax.text(-1.7, (ys[start] + ys[plus]) / 2 + 0.25, tr("residual"), rotation=90, ha="right", va="center",
                fontsize=10)
    ax.add_patch(_frame(ys[2] - 0.6, ys[7] + 0.45))
    ax.text(2.55, (ys[2] + ys[7]) / 2, tr("block\n× {n}", n=n_layer), ha="left", va="center", fontsize=12)
    ax.set_xlim(-2.4, 3.4)
    ax.set_ylim(-0.7, ys[-1] + 0.7)
    ax.axis("off")


def _circle(y: float):
    """A small circle around a residual '+'."""
    from matplotlib.patches import Circle

    return Circle((0, y), 0.22, facecolor="white", edgecolor="black")


def _frame(bottom: float, top: float):
    """The dashed frame around one block."""
    from matplotlib.patches import FancyBboxPatch

    return FancyBboxPatch((-2.0, bottom), 4.45, top - bottom, boxstyle="round,pad=0.05", fill=False,
                          linestyle="--", edgecolor="gray")


__all__ = ["draw_decoder_only"]
