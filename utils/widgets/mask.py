"""Mask explorer: the 2 x 2 experiment of notebook 08 as a grid a student clicks through.

Rows: trained with or without the causal mask; columns: run (scored and generating) with or
without it. Each cell shows its teacher-forced loss on validation text, the judge's
generation-time loss of its samples, its attention map on the prefix and what it writes.
The numbers are those of the plain functions of utils.copy_failure (grid_losses, and the maps and
samples of grid_maps / grid_samples, computed faster by utils/widgets/mask_samples.py, which the
tests hold equal to them); this widget only ships them to the browser. Choosing a cell never
reaches the kernel (anywidget: utils/widgets/static/mask_grid.js draws it); a new prefix does: the
kernel sends the four attention maps at once (`cells`), then the samples as they are written
(`texts`, every 0.1 s), and caches both.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from utils.copy_failure import MASK_SETTINGS, GridCell, grid_losses, judge_samples
from utils.i18n.text import mark, tr
from utils.interface import LanguageModel
from utils.widgets.colors import colormap_table
from utils.widgets.mask_samples import cell_runs, grid_cell_maps, stream_samples
from utils.widgets.view_text import view_module, view_text

STATIC = Path(__file__).with_name("static")
MAX_PREFIX = 48
KEYS = [f"{trained}/{evaluated}" for trained in MASK_SETTINGS for evaluated in MASK_SETTINGS]
VIEW_TEXT = (  # what static/mask_grid.js writes (lmSay, lmSayHtml)
    mark("with the mask"), mark("without the mask"), mark("trained {trained}, run {run}"),
    mark("key (read) position j"), mark("query position i"), mark("{share}% of rows look one step ahead"),
    mark("attention map, {cell}; {share} percent of rows look one step ahead"), mark("prefix"),
    mark("prefix the models continue (Enter to run)"),
    mark("the four cells: trained with or without the mask, run with or without it; arrow keys move"),
    mark("run with the mask"), mark("run without the mask"), mark("trained with the mask"),
    mark("trained without the mask"), mark("attention map of the chosen cell"), mark("teacher-forced"),
    mark("samples, judged"), mark("nats/char"),
    mark("{cell}: teacher-forced loss {loss}, samples judged {judged} nats per character"),
    mark("teacher-forced loss on validation text: {loss} nats/char"),
    mark("its samples, scored by the judge ({judge}): {loss} nats/char"),
    mark("rows whose largest weight is one step ahead: {share}"), mark(" (writing: {written} of {length} characters)"),
    mark("what it writes after the prefix (temperature 1)"), mark("writing samples…"),
    mark("running the four models on the new prefix…"),
)


def cell_payload(trained: str, evaluated: str, loss: float, tokens: list[str], attention, share: float,
                 samples: list[str] | None, sample_nll: float | None) -> dict:
    """One cell as the browser gets it (JSON: attention rounded to 3 decimals; samples None while being written)."""
    return {"trained": trained, "evaluated": evaluated, "teacher_forced": round(float(loss), 4),
            "sample_nll": None if sample_nll is None else round(float(sample_nll), 4),
            "tokens": list(tokens), "attention": [[round(float(w), 3) for w in row] for row in attention.tolist()],
            "next_share": float(share), "samples": samples}


def texts_payload(prefix: str, written: int, length: int, samples: dict[str, list[str]],
                  nll: dict[str, float] | None) -> dict:
    """The four cells' samples so far as the browser gets them: {prefix, written, length, done, cells: {key: ...}}."""
    return {"prefix": prefix, "written": written, "length": length, "done": nll is not None,
            "cells": {key: {"samples": samples[key], "sample_nll": None if nll is None else round(float(nll[key]), 4)}
                      for key in samples}}


class MaskGridWidget(anywidget.AnyWidget):
    """The 2 x 2 grid (lm-main-control: the four cell buttons); prefix box; detail view of the chosen cell.

    Each cell writes n_samples continuations of `length` characters (3 of 40 by default, all shown: a cell run
    without the mask re-runs its whole history for every character, so the text is kept short; section 5 of the
    notebook judges 8 of 60 with the same functions). At the notebook's one layer, whose rows share their draws
    and whose cells run with the mask step together (stacked_decoder.py), a new prefix took 31-35 ms in all on
    2026-12-03 against 54-60 ms one model at a time, timed in turns; at its Try-it's two layers 181-198 against
    233-272 ms (bench_widget_kernel.py).
    """

    _esm = view_module("svg_figure.js", "mask_grid.js")
    _css = (STATIC / "lm_widgets.css").read_text(encoding="utf-8")
    cells = traitlets.List().tag(sync=True)  # the four cells' maps and losses for the prefix (samples: see texts)
    texts = traitlets.Dict().tag(sync=True)  # texts_payload: the samples written so far
    selected = traitlets.Unicode("unmasked/masked").tag(sync=True)
    prefix = traitlets.Unicode("The ").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    colormap = traitlets.List(colormap_table()).tag(sync=True)
    judge_name = traitlets.Unicode("").tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    shown_samples = traitlets.Int(3).tag(sync=True)
    updates = traitlets.Int(0).tag(sync=True)  # counts the prefixes fully shown (maps and samples)
    view_text = traitlets.Dict().tag(sync=True)  # the view's words in the notebook's language (view_text.py)

    def __init__(self, models: dict, judge: LanguageModel, tokenizer, windows, prefix: str = "The ",
                 n_samples: int = 3, length: int = 40, seed: int = 0, judge_name: str = "", note: str = "",
                 interval_s: float = 0.1, **kwargs):
        if set(models) != set(MASK_SETTINGS):
            raise ValueError("give models for exactly the keys 'masked' and 'unmasked'")
        super().__init__(judge_name=judge_name, note=note, view_text=view_text(VIEW_TEXT), **kwargs)
        self.models, self.judge, self.tokenizer = models, judge, tokenizer
        self.n_samples, self.length, self.seed, self.interval_s = n_samples, length, seed, interval_s
        self.stack = True  # the cached cells step together (stream_samples); False: one model at a time
        self.losses = grid_losses(models, windows)  # no prefix changes these: computed once
        self.runs = cell_runs(models)  # the four cells' models, built once
        self.cache: dict[str, tuple[list[dict], dict]] = {}
        self.observe(lambda change: self.show(change["new"]), names="prefix")
        self.prefix = prefix
        if not self.cells:  # the default prefix sends no change event
            self.show(prefix)

    @traitlets.validate("selected")
    def _valid_selected(self, proposal) -> str:
        if proposal["value"] not in KEYS:
            raise traitlets.TraitError(f"selected must be one of {KEYS} (trained/evaluated), got {proposal['value']!r}")
        return proposal["value"]

    def show(self, prefix: str) -> list[dict] | None:
        """Compute (or take from the cache) the four cells for `prefix` and send them; errors go to `status`."""
        prefix = prefix[-MAX_PREFIX:]
        if prefix in self.cache:
            (self.cells, self.texts), self.status = self.cache[prefix], ""
            self.updates += 1
            return self.cells
        try:
            if not prefix:
                raise ValueError(tr("the prefix is empty: type at least one character"))
            ids = self.tokenizer.encode(prefix)  # the tokenizer names any character it does not know
        except ValueError as error:
            self.status = ""  # the same message again would send no change: the view's "running…" would stay
            self.status = tr("cannot run this prefix: {error}", error=error)
            return None
        tokens = list(self.tokenizer.split(prefix))
        maps = grid_cell_maps(self.runs, ids)
        self.cells = [{**cell_payload(*key, self.losses[key], tokens, *maps[key], None, None), "prefix": prefix}
                      for key in (tuple(k.split("/")) for k in KEYS)]  # the maps are shown now; the text follows
        self.status = tr("writing samples…")
        for written, ids_so_far in stream_samples(self.runs, ids, self.n_samples, self.length, self.seed, self.interval_s,
                                                  self.stack):
            samples = {"/".join(key): [self.tokenizer.decode(c) for c in rows] for key, rows in ids_so_far.items()}
            nll = None
            if written == self.length:  # twin cells share their rows: each distinct set is judged once
                judged: dict[str, float] = {}
                for rows in ids_so_far.values():
                    if repr(rows) not in judged:
                        judged[repr(rows)] = judge_samples(self.judge, ids, rows)
                nll = {"/".join(key): judged[repr(rows)] for key, rows in ids_so_far.items()}
            self.texts = texts_payload(prefix, written, self.length, samples, nll)
        self.cache[prefix] = self.cells, self.texts
        self.status = ""
        self.updates += 1
        return self.cells

    def cell(self, trained: str, evaluated: str) -> dict:
        """The current prefix's data of one cell (what the browser draws), with its samples and their judged NLL."""
        cell = next(c for c in self.cells if c["trained"] == trained and c["evaluated"] == evaluated)
        written = self.texts.get("cells", {}).get(f"{trained}/{evaluated}", {}) if self.texts.get("done") else {}
        return {**cell, **written}


def mask_widget(models: dict, judge: LanguageModel, tokenizer, windows, prefix: str = "The ", **kwargs) -> MaskGridWidget:
    """The 2 x 2 mask explorer for a trained masked/unmasked pair (utils.copy_failure.train_masked_and_unmasked)."""
    return MaskGridWidget(models, judge, tokenizer, windows, prefix, **kwargs)


__all__ = ["GridCell", "MaskGridWidget", "cell_payload", "colormap_table", "mask_widget", "texts_payload"]
