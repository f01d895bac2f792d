"""The Blitter: redraws only the animated artists over a saved background, with the same pixels as a full redraw."""

import io

import numpy as np
import pytest
from PIL import Image

from utils.widgets.blit import Blitter
from utils.widgets.canvas import FigureWidget


def pixels(png: bytes) -> np.ndarray:
    """Decoded RGBA pixels, (height, width, 4)."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def changed(a: np.ndarray, b: np.ndarray) -> int:
    """Number of pixels that differ."""
    return int((a != b).any(axis=-1).sum())


class Scene:
    """A 150 x 100 pixel figure: a static grey line behind an animated image and an animated red line.

    The axis is off and the animated artists sit above the static one (zorder), so a full redraw
    paints everything in the same order as the blitter and the pixels can be compared exactly.
    """

    def __init__(self):
        self.canvas = FigureWidget(figsize=(3, 2), dpi=50)
        self.ax = self.canvas.subplots()
        self.ax.set_xlim(0, 10)
        self.ax.set_ylim(0, 10)
        self.ax.set_axis_off()
        (self.static,) = self.ax.plot([0, 10], [2, 2], color="grey", linewidth=3, zorder=1)
        self.image = self.ax.imshow(np.zeros((4, 4)), vmin=0, vmax=1, extent=(5, 9, 5, 9), zorder=2)
        (self.line,) = self.ax.plot([0, 4], [0, 8], color="red", zorder=3)
        self.animated = [self.image, self.line]
        self.blitter = Blitter(self.canvas)

    def blit(self) -> np.ndarray:
        self.blitter.refresh(self.animated)
        return pixels(self.canvas.image.value)

    def full_redraw(self) -> np.ndarray:
        """Every artist drawn the ordinary way (a full draw leaves animated artists out, so unmark them)."""
        for artist in self.animated:
            artist.set_animated(False)
        try:
            return pixels(self.canvas.render())
        finally:
            for artist in self.animated:
                artist.set_animated(True)


@pytest.fixture
def scene():
    return Scene()


def test_refresh_puts_a_png_of_the_whole_figure_in_the_widget(scene):
    assert bytes(scene.canvas.image.value) == b""
    first = scene.blit()
    assert bytes(scene.canvas.image.value).startswith(b"\x89PNG")
    assert first.shape == (100, 150, 4)  # figsize x dpi
    assert all(artist.get_animated() for artist in scene.animated)
    assert set(scene.blitter.backgrounds) == {"default"}


def test_blitted_pixels_equal_a_full_redraw_before_and_after_a_change(scene):
    first = scene.blit()
    assert changed(first, scene.full_redraw()) == 0
    assert (first[..., :3] != 255).any(axis=-1).sum() > 100  # not a blank picture: the artists are there
    scene.image.set_data(np.eye(4))
    scene.line.set_data([0, 8], [8, 0])
    second = scene.blit()
    assert changed(first, second) > 100  # the animated artists really moved on the picture
    assert changed(second, scene.full_redraw()) == 0  # and nothing of their old place is left behind


def test_the_same_state_gives_the_same_png(scene):
    scene.blit()
    first_png = bytes(scene.canvas.image.value)
    scene.line.set_data([0, 8], [8, 0])
    scene.blit()
    scene.line.set_data([0, 4], [0, 8])
    scene.blit()
    assert bytes(scene.canvas.image.value) == first_png


def test_a_hidden_artist_is_left_out(scene):
    shown = scene.blit()
    scene.line.set_visible(False)
    hidden = scene.blit()
    assert changed(shown, hidden) > 50
    assert changed(hidden, scene.full_redraw()) == 0


def test_the_background_is_drawn_once_until_invalidated(scene, monkeypatch):
    draws = []
    original = scene.canvas.figure.canvas.draw
    monkeypatch.setattr(scene.canvas.figure.canvas, "draw", lambda: (draws.append(1), original())[1])
    scene.blit()
    scene.line.set_data([0, 8], [8, 0])
    scene.blit()
    scene.blit()
    assert len(draws) == 1  # later refreshes restore the saved background instead of drawing it
    scene.blitter.invalidate()
    assert scene.blitter.backgrounds == {}
    scene.blit()
    assert len(draws) == 2


def test_a_background_change_shows_only_after_invalidate(scene):
    before = scene.blit()
    scene.static.set_color("blue")
    assert changed(scene.blit(), before) == 0  # the saved background still has the grey line
    scene.blitter.invalidate()
    after = scene.blit()
    assert changed(after, before) > 50
    assert changed(after, scene.full_redraw()) == 0


def test_each_key_keeps_its_own_background(scene):
    scene.blitter.refresh(scene.animated, key="a")
    scene.blitter.refresh([scene.line], key="b")
    assert set(scene.blitter.backgrounds) == {"a", "b"}
    scene.blitter.invalidate()
    assert scene.blitter.backgrounds == {}


def test_a_changed_title_is_redrawn():
    canvas = FigureWidget(figsize=(3, 2), dpi=50)
    ax = canvas.subplots()
    ax.plot([0, 1], [0, 1])
    blitter = Blitter(canvas)
    ax.set_title("one")
    blitter.refresh([ax.title])
    one = pixels(canvas.image.value)
    ax.set_title("two")
    blitter.refresh([ax.title])
    two = pixels(canvas.image.value)
    top = slice(0, 25)  # the title's rows; the axes below keep their pixels
    assert changed(one[top], two[top]) > 10 and changed(one[25:], two[25:]) == 0


def test_compression_level_changes_the_bytes_not_the_pixels(scene):
    scene.blit()
    fast, small = scene.blitter.png(), Blitter(scene.canvas, compress_level=9).png()
    assert changed(pixels(fast), pixels(small)) == 0
    assert len(small) < len(fast)
