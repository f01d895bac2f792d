"""Drawing a beam search as a tree: every candidate it scored, the ones it kept, greedy's path and the optimum."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt

from utils.i18n.text import tr


def draw_beam_tree(
    ax: plt.Axes,
    trace: list[list[tuple[tuple[int, ...], float, bool]]],
    labels: Sequence[str],
    highlight: dict[str, tuple[tuple[int, ...], str]] | None = None,
) -> None:
    """Plot a beam_search trace: one column per step, kept candidates dark, pruned ones grey.

    trace: beam_search(..., trace=[]) entries, each candidate (tokens, summed log p, kept).
    highlight: {legend name: (token sequence, colour)} paths drawn on top (greedy, the optimum).
    """
    if not trace:
        raise ValueError(tr("the trace is empty: run beam_search(..., trace=trace) with max_new_tokens >= 1"))
    where: dict[tuple[int, ...], tuple[float, float]] = {(): (0.0, 0.0)}
    for depth, candidates in enumerate(trace, start=1):
        ordered = sorted(candidates, key=lambda c: c[0])
        for row, (tokens, score, kept) in enumerate(ordered):
            y = row - (len(ordered) - 1) / 2
            where[tokens] = (float(depth), y)
            parent = where.get(tokens[:-1])
            if parent is not None:
                ax.plot([parent[0], depth], [parent[1], y], color="0.25" if kept else "0.8", lw=1.5 if kept else 0.8,
                        zorder=1)
            ax.scatter([depth], [y], s=55, color="tab:blue" if kept else "0.8", zorder=2)
            ax.annotate(f"{labels[tokens[-1]]} {score:.2f}", (depth, y), xytext=(5, 2), textcoords="offset points",
                        fontsize=9, color="black" if kept else "0.6")
    for name, (tokens, colour) in (highlight or {}).items():
        path = [where[tokens[:i]] for i in range(len(tokens) + 1) if tokens[:i] in where]
        ax.plot([p[0] for p in path], [p[1] for p in path], color=colour, lw=3, alpha=0.6, label=name, zorder=0)
    ax.scatter([0], [0], s=70, color="black", zorder=3)
    ax.set_xticks(range(len(trace) + 1), [tr("prefix")] + [tr("step {step}", step=d) for d in range(1, len(trace) + 1)])
    ax.set_yticks([])
    if highlight:
        ax.legend(loc="upper left", fontsize=10)
