"""Answers written by the exercise red teams (issue 30) from the released notebooks 06 and 10 alone.

red_team_1/ holds the first team's, red_team_2/ the second's (it had not seen the first's). Each file NN_exK_V.py is the whole source of one solution cell: V = wN a wrong answer (or a bypass), ok/ok2 a right
one written the red team's own way. `adopt` files them into a wrong-answer module's WRONG / DELEGATIONS / RIGHT, after
the module's own entries, so they run in the slow tier (`pytest -m slow`); delegations run in the default tier.
"""

from __future__ import annotations

from pathlib import Path

from tests.wrong_answers.spec import Delegation, Right, Wrong

HERE = Path(__file__).resolve().parent


def adopt(notebook: str, wrong: dict, delegations: dict, right: dict, bypasses: set[str], wrong_right: set[str],
          team: int = 1) -> None:
    """Add notebook `notebook`'s ('06') red-team answers to the three tables, keyed by each table's exercise ids.

    bypasses: the variants ('ex1_w3') that call a denied operation (they must score 0 naming it); wrong_right: ok answers
    that the exercise's own terms do not give full marks (filed as wrong answers).
    """
    exercise_ids = {key.split("_")[0]: key for key in (*wrong, *delegations, *right)}
    for path in sorted((HERE.parent / f"red_team_{team}").glob(f"{notebook}_ex*_*.py")):
        _, exercise, variant = path.stem.split("_")
        key, source, name = exercise_ids[exercise], path.read_text(encoding="utf-8"), f"red{team}_{variant}"
        if f"{exercise}_{variant}" in bypasses:
            delegations.setdefault(key, []).append(Delegation(name, source))
        elif variant.startswith("w") or f"{exercise}_{variant}" in wrong_right:
            wrong.setdefault(key, []).append(Wrong(name, source))
        else:
            right.setdefault(key, []).append(Right(name, source))
