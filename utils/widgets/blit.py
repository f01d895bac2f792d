"""Fast in-place redraws for FigureWidget: draw the static parts once, then only the artists that change.

Matplotlib spends most of a full redraw laying out text (tick labels, titles). When only an
image's data or a title changes, `Blitter` restores a saved background (everything drawn
except the changing artists) and draws just those artists on top, then encodes the PNG.
Call `invalidate()` whenever something in the background changes (labels, limits, visibility).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.artist import Artist
from PIL import Image

from utils.widgets.canvas import FigureWidget


class Blitter:
    """Redraw `artists` of a FigureWidget on a cached background; artists are marked animated."""

    def __init__(self, canvas: FigureWidget, compress_level: int = 1):
        self.canvas = canvas
        self.compress_level = compress_level
        self.backgrounds: dict[str, object] = {}

    def invalidate(self) -> None:
        """Forget the saved backgrounds (after changing labels, limits or what is visible)."""
        self.backgrounds.clear()

    def refresh(self, artists: Sequence[Artist], key: str = "default") -> None:
        """Draw `artists` over the background saved under `key` (drawn now if missing) and update the image."""
        agg = self.canvas.figure.canvas
        for artist in artists:
            artist.set_animated(True)
        if key not in self.backgrounds:
            agg.draw()  # everything except animated artists
            self.backgrounds[key] = agg.copy_from_bbox(self.canvas.figure.bbox)
        else:
            agg.restore_region(self.backgrounds[key])
        for artist in artists:
            if artist.get_visible():
                self.canvas.figure.draw_artist(artist)
        self.canvas.image.value = self.png()

    def png(self) -> bytes:
        """The canvas's current pixels as PNG bytes (fast compression)."""
        agg = self.canvas.figure.canvas
        width, height = agg.get_width_height()
        pixels = Image.frombuffer("RGBA", (width, height), agg.buffer_rgba(), "raw", "RGBA", 0, 1)
        buffer = io.BytesIO()
        pixels.save(buffer, format="png", compress_level=self.compress_level)
        return buffer.getvalue()
