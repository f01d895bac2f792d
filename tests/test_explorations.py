"""Exploration is safe: every corpus a notebook offers and every Try-it parameter change runs with no red cell.

Slow tier (`pytest -m slow tests/test_explorations.py`): each case is a whole notebook run in fast mode.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from tests.explorations.spec import NOTEBOOKS, TRY_ITS, Exploration, explorations, offered_corpora, parameters_cell

CASES = explorations()


def _run(exploration: Exploration, tmp_path: Path) -> None:
    nb = nbformat.read(NOTEBOOKS / exploration.notebook, as_version=4)
    cell = parameters_cell(nb)
    cell.source += f"\n{exploration.code}  # exploration: {exploration.name}\n"
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()


@pytest.mark.slow
@pytest.mark.parametrize("exploration", CASES, ids=[f"{c.notebook.split('_')[0]}::{c.name}" for c in CASES])
def test_exploration_runs_without_a_red_cell(exploration: Exploration, tmp_path: Path) -> None:
    try:
        _run(exploration, tmp_path)
    except CellExecutionError as error:
        first = str(error).strip().splitlines()
        pytest.fail(f"{exploration.notebook} with `{exploration.code}` turns a cell red:\n" + "\n".join(first[-12:]))


# Notebooks built around one corpus: 12 measures the form of five-character quatrains, which only
# `tang5` holds (the full `tang` mixes every form, and most of its poems exceed the model's context).
ONE_CORPUS_ONLY = {"12_tang_poems.ipynb"}


def test_every_notebook_offers_its_corpora_in_one_line() -> None:
    """The parameters cell names the corpora it offers, so the explorations above find them."""
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        if path.name in ONE_CORPUS_ONLY:
            continue
        assert offered_corpora(nbformat.read(path, as_version=4)), f"{path.name}: its CORPUS line names no other corpus"


def test_try_its_name_real_notebooks_and_parameters() -> None:
    for notebook, changes in TRY_ITS.items():
        source = parameters_cell(nbformat.read(NOTEBOOKS / notebook, as_version=4)).source
        for code in changes.values():
            name = code.split("=")[0].strip()
            assert f"\n{name} =" in "\n" + source, f"{notebook}: the Try-it changes {name}, which its parameters cell lacks"
