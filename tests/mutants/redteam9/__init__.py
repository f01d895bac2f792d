"""The seventh red team's mutants (2026-12-07), one file per notebook (rNN.py), appended to tests/mutants/mNN_*.py's MUTANTS.

Written by fresh helpers that saw only their notebook, its lesson and utils (not tests/mutants, not the wrong answers, not
git history, not the earlier teams' files). Their files are kept as written, with their no-change baselines (`base_*`,
which must survive). Here each mutant is renamed rt9_<name>; the ones that survived the team's run and whose show is
not mended yet are held back in OPEN, the ones that do not remove the cause they name in INVALID (not run). They come
after each show's own first mutant, so they run in the slow tier (pytest -m slow).

Where a mend's new assert kills a mutant with a message its regex did not foresee, the regex gained that message as
its last alternative; nothing else in the files was changed.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.mutation.adopted import load_team_file
from tests.mutation.spec import Mutant

HERE = Path(__file__).resolve().parent

# survived in the team's run; the show still lets them pass
OPEN: dict[str, set[str]] = {}
# do not remove the cause they name (not a kill, not a survival)
INVALID = {"05": {"h_measured_on_shuffled_text"}}  # changes only the probe text, not the models or their training


def adopted(number: str) -> list[Mutant]:
    """The killed (or since-mended) mutants of notebook `number`, renamed rt9_<name>."""
    held = OPEN.get(number, set()) | INVALID.get(number, set())
    return [dataclasses.replace(m, name=f"rt9_{m.name}") for m in load_team_file(HERE, number)
            if m.name not in held and not m.name.startswith("base_")]
