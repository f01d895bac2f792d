"""Colour tables the browser-side widgets draw with, sampled from matplotlib (one definition of each colormap)."""

from __future__ import annotations

from matplotlib import colormaps


def colormap_table(name: str = "viridis", n: int = 64) -> list[str]:
    """n hex colours sampled from a matplotlib colormap (viridis, RdBu_r: readable with the common colour-vision deficiencies)."""
    if n < 2:
        raise ValueError(f"a colour table needs at least 2 colours, got {n}")
    cmap = colormaps[name]
    return ["#%02x%02x%02x" % tuple(int(round(255 * c)) for c in cmap((i + 0.5) / n)[:3]) for i in range(n)]
