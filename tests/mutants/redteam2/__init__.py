"""The second red team's killed mutants, one file per notebook (rNN.py), appended to tests/mutants/mNN_*.py's MUTANTS.

Kept apart because they were written by a helper that saw only the notebook: their count is that team's kill figure.
They come after each show's own first mutant, so they run in the slow tier (pytest -m slow).
"""

from __future__ import annotations

from pathlib import Path

from tests.mutation.adopted import load_team_file
from tests.mutation.spec import Mutant

HERE = Path(__file__).resolve().parent


def adopted(number: str) -> list[Mutant]:
    """The adopted mutants of notebook `number` ('01'..'12'), from rNN.py."""
    return load_team_file(HERE, number)
