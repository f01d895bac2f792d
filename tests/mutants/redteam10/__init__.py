"""The eighth red team's mutants (second session of 2026-12-07), adopted as tests/mutants/redteam9 describes: fresh
helpers who saw only their notebook, its lesson and utils wrote rNN.py; each mutant is renamed rt10_<name> and runs in
the slow tier after its show's first mutant. OPEN holds survivors whose show is not mended yet, INVALID the mutants that
do not remove the cause they name (neither is run).
"""

from __future__ import annotations

from pathlib import Path

from tests.mutation.adopted import adopted_team
from tests.mutation.spec import Mutant

HERE = Path(__file__).resolve().parent
OPEN: dict[str, set[str]] = {}
INVALID: dict[str, set[str]] = {}


def adopted(number: str) -> list[Mutant]:
    """The killed (or since-mended) mutants of notebook `number`, renamed rt10_<name>."""
    return adopted_team(HERE, number, "rt10", OPEN.get(number, set()) | INVALID.get(number, set()))
