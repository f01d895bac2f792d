"""Mask explorer: the 2 x 2 experiment of notebook 08 as a grid a student clicks through.

Rows: trained with or without the causal mask; columns: run (scored and generating) with or
without it. Each cell shows its teacher-forced loss on validation text, the judge's
generation-time loss of its samples, its attention map on the prefix and what it writes.
The numbers come from plain functions (utils.copy_failure.grid_losses / grid_maps /
grid_samples); this widget only ships them to the browser. Choosing a cell never reaches the
kernel (anywidget: utils/widgets/static/mask_grid.js draws it); a new prefix does: the kernel
sends the four attention maps at once, then the samples when they are written, and caches both.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets
from utils.copy_failure import MASK_SETTINGS, GridCell, grid_losses, grid_maps, grid_samples
from utils.interface import LanguageModel
from utils.widgets.colors import colormap_table

STATIC = Path(__file__).with_name("static")
MAX_PREFIX = 48
KEYS = [f"{trained}/{evaluated}" for trained in MASK_SETTINGS for evaluated in MASK_SETTINGS]


def cell_payload(trained: str, evaluated: str, loss: float, tokens: list[str], attention, share: float,
                 samples: list[str] | None, sample_nll: float | None) -> dict:
    """One cell as the browser gets it (JSON: attention rounded to 3 decimals; samples None while being written)."""
    return {"trained": trained, "evaluated": evaluated, "teacher_forced": round(float(loss), 4),
            "sample_nll": None if sample_nll is None else round(float(sample_nll), 4),
            "tokens": list(tokens), "attention": [[round(float(w), 3) for w in row] for row in attention.tolist()],
            "next_share": float(share), "samples": samples}


def _esm() -> str:
    return (STATIC / "svg_figure.js").read_text(encoding="utf-8") + "\n" + (STATIC / "mask_grid.js").read_text(encoding="utf-8")


class MaskGridWidget(anywidget.AnyWidget):
    """The 2 x 2 grid (lm-main-control: the four cell buttons); prefix box; detail view of the chosen cell."""

    _esm = _esm()
    _css = (STATIC / "lm_widgets.css").read_text(encoding="utf-8")
    cells = traitlets.List().tag(sync=True)
    selected = traitlets.Unicode("unmasked/masked").tag(sync=True)
    prefix = traitlets.Unicode("The ").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    colormap = traitlets.List(colormap_table()).tag(sync=True)
    judge_name = traitlets.Unicode("").tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    shown_samples = traitlets.Int(3).tag(sync=True)
    updates = traitlets.Int(0).tag(sync=True)  # counts the prefixes fully shown (maps and samples)

    def __init__(self, models: dict, judge: LanguageModel, tokenizer, windows, prefix: str = "The ",
                 n_samples: int = 4, length: int = 60, seed: int = 0, judge_name: str = "", note: str = "", **kwargs):
        if set(models) != set(MASK_SETTINGS):
            raise ValueError("give models for exactly the keys 'masked' and 'unmasked'")
        super().__init__(judge_name=judge_name, note=note, **kwargs)
        self.models, self.judge, self.tokenizer = models, judge, tokenizer
        self.n_samples, self.length, self.seed = n_samples, length, seed
        self.losses = grid_losses(models, windows)  # no prefix changes these: computed once
        self.cache: dict[str, list[dict]] = {}
        self.observe(lambda change: self.show(change["new"]), names="prefix")
        self.prefix = prefix
        if not self.cells:  # the default prefix sends no change event
            self.show(prefix)

    def show(self, prefix: str) -> list[dict] | None:
        """Compute (or take from the cache) the four cells for `prefix` and send them; errors go to `status`."""
        prefix = prefix[-MAX_PREFIX:]
        if prefix in self.cache:
            self.cells, self.status = self.cache[prefix], ""
            self.updates += 1
            return self.cells
        try:
            maps = grid_maps(self.models, self.tokenizer, prefix, MAX_PREFIX)
        except ValueError as error:
            self.status = f"cannot run this prefix: {error}"
            return None
        cells = {key: cell_payload(*key, self.losses[key], *maps[key], None, None) for key in maps}
        self.status = "writing samples…"
        self.cells = [cells[tuple(key.split("/"))] for key in KEYS]  # the maps are shown now; the text follows
        samples = grid_samples(self.models, self.judge, self.tokenizer, prefix, self.n_samples, self.length, self.seed,
                               MAX_PREFIX)
        for key, (texts, nll) in samples.items():
            cells[key] = {**cells[key], "samples": texts, "sample_nll": round(float(nll), 4)}
        self.cells = [cells[tuple(key.split("/"))] for key in KEYS]
        self.cache[prefix] = self.cells
        self.status = ""
        self.updates += 1
        return self.cells

    def cell(self, trained: str, evaluated: str) -> dict:
        """The current prefix's data of one cell (what the browser draws)."""
        return next(c for c in self.cells if c["trained"] == trained and c["evaluated"] == evaluated)


def mask_widget(models: dict, judge: LanguageModel, tokenizer, windows, prefix: str = "The ", **kwargs) -> MaskGridWidget:
    """The 2 x 2 mask explorer for a trained masked/unmasked pair (utils.copy_failure.train_masked_and_unmasked)."""
    return MaskGridWidget(models, judge, tokenizer, windows, prefix, **kwargs)


__all__ = ["GridCell", "MaskGridWidget", "cell_payload", "colormap_table", "mask_widget"]
