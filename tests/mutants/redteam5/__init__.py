"""The third red team's mutants, one file per notebook (rNN.py), appended to tests/mutants/mNN_*.py's MUTANTS.

Kept apart because they were written by a helper that saw only the notebook: their count is that team's kill figure.
They come after each show's own first mutant, so they run in the slow tier (pytest -m slow).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.mutation.spec import Mutant

HERE = Path(__file__).resolve().parent


def adopted(number: str) -> list[Mutant]:
    """The adopted mutants of notebook `number` ('01'..'12'), from rNN.py."""
    path = HERE / f"r{number}.py"
    spec = importlib.util.spec_from_file_location(f"redteam5_r{number}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.MUTANTS)
