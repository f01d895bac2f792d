"""The sixth red team's mutants (2026-12-06, night), one file per notebook (rNN.py), appended to tests/mutants/mNN_*.py's MUTANTS.

Written by four fresh helpers that saw only their notebooks, lessons and utils (not tests/mutants, not the wrong
answers, not git history, not the earlier teams' files): 04, 10, 09+11, 12. Their files are kept as written, with their
no-change baselines (`base_*`, which must survive). Here each mutant is renamed rt8_<name>; the ones that survived the
team's run and whose show is not mended yet are held back in OPEN, the ones that never reached their show or do not
remove the cause they name in INVALID (not run). They come after each show's own first mutant, so they run in the
slow tier (pytest -m slow).

Where a mend's new assert kills a mutant with a message its regex did not foresee, the regex gained that message as
its last alternative; nothing else in the files was changed.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.mutation.adopted import load_team_file
from tests.mutation.spec import Mutant

HERE = Path(__file__).resolve().parent

# survived in the team's run; the show still lets them pass (see the closing note of 2026-12-06, night)
OPEN = {
    "10": set(),
}
# failed before their show, or were found not to remove the cause they name (not a kill, not a survival)
INVALID = {"10": {"beam_no_reorder"}}


def adopted(number: str) -> list[Mutant]:
    """The killed (or since-mended) mutants of notebook `number` ('04', '09'..'12'), renamed rt8_<name>."""
    held = OPEN.get(number, set()) | INVALID.get(number, set())
    return [dataclasses.replace(m, name=f"rt8_{m.name}") for m in load_team_file(HERE, number)
            if m.name not in held and not m.name.startswith("base_")]
