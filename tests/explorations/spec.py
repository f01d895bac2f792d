"""What a student may change: every corpus a parameters cell offers, and the parameter changes its Try-its suggest.

Each entry is appended to the notebook's parameters cell (papermill style), so the cells after it see
the change; the notebook must then run top to bottom without a red cell. A show whose effect the
change is meant to remove notices the changed parameter and prints what the student should observe.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CORPORA = ("pydocs", "shakespeare", "names")

# Try-it parameter changes, by notebook (code appended to the parameters cell). Corpora are found on their own.
TRY_ITS: dict[str, dict[str, str]] = {
    "03_fixed_window_neural_lm.ipynb": {"window_1": "WINDOW = 1", "gap_inside_window": "RECALL_GAP = WINDOW - 2",
                                        "pairs_not_shared": "PAIRS_SHARED = False"},
    "04_recurrent_networks.ipynb": {"recall_gap_8": "RECALL_GAP = 8"},
    "05_attention.ipynb": {"wide_d_k_16": "WIDE_D_K = 16", "qk_mean_half": "QK_MEAN = 0.5"},
    "07_transformer_lm.ipynb": {"grid_layers_2": "GRID_LAYERS = 2"},
    "08_masks_copy_failure.ipynb": {"positional_none": 'POSITIONAL = "none"', "two_layers": "N_LAYER = 2"},
    "09_decoding.ipynb": {"new_tokens_48": "NEW_TOKENS = 48"},
    "10_generation_cost_kv_cache.ipynb": {"prompt_length_16": "PROMPT_LENGTH = 16"},
}


@dataclass(frozen=True)
class Exploration:
    """One run of a notebook with a changed parameters cell."""

    notebook: str
    name: str
    code: str


def parameters_cell(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The cell tagged `parameters` (every course notebook has one)."""
    found = [cell for cell in nb.cells if "parameters" in cell.metadata.get("tags", [])]
    if len(found) != 1:
        raise ValueError(f"expected one cell tagged 'parameters', found {len(found)}")
    return found[0]


def offered_corpora(nb: nbformat.NotebookNode) -> list[str]:
    """The corpora the parameters cell's CORPUS line names (its value and its comment), default excluded."""
    line = next((line for line in parameters_cell(nb).source.splitlines() if line.startswith("CORPUS")), "")
    default = re.match(r'CORPUS\s*=\s*"(\w+)"', line)
    named = [name for name in CORPORA if f'"{name}"' in line]
    return [name for name in named if not default or name != default.group(1)]


def explorations() -> list[Exploration]:
    """Every exploration of every course notebook."""
    found = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        found += [Exploration(path.name, f"corpus_{name}", f'CORPUS = "{name}"') for name in offered_corpora(nb)]
        found += [Exploration(path.name, name, code) for name, code in TRY_ITS.get(path.name, {}).items()]
    return found
