"""Every exercise tells wrong answers apart: graded by the real `python -m utils.grading grade`, row by row.

For each file tests/wrong_answers/wNN_*.py one grading run per tier grades its students (see
tests/wrong_answers/harness.py): the solution gets full marks, the released stub 0, each wrong
answer less than full (the ones marked `visible` stopped by the visible checks with the given
message), each delegation to the reference 0 with the denied function named, each other right
answer full marks. The default tier grades the solution, the stub, the first wrong answer
and delegation of every exercise; `pytest -m slow` grades the right answers and the other wrong answers and delegations.
"""

from __future__ import annotations

import os

import pytest

from tests.wrong_answers.harness import (
    NOTEBOOKS,
    Expected,
    course_exercises,
    deny_list,
    grade_with_cli,
    is_slow,
    plan_students,
    row_problem,
    wrong_answer_files,
    write_students,
)
from utils.grading.notebook import grade_id, is_solution

FILES = wrong_answer_files()
BY_NOTEBOOK = {spec.notebook: spec for spec in FILES}
# LM_WRONG_ANSWERS_NOTEBOOKS="08 09" grades only those notebooks (the static checks still cover every file).
ONLY = os.environ.get("LM_WRONG_ANSWERS_NOTEBOOKS", "").replace(",", " ").split()
GRADED = [nb for nb in BY_NOTEBOOK if not ONLY or nb.split("_")[0] in ONLY]


def _plan(notebook: str) -> tuple[dict, list[Expected]] | Exception:
    """The notebook's students and expected rows, or the error that stopped building them (reported by a test)."""
    try:
        return plan_students(BY_NOTEBOOK[notebook])
    except Exception as error:  # noqa: BLE001 - one broken notebook must not hide the others' tests
        return error


PLANS = {notebook: _plan(notebook) for notebook in GRADED}
BUILT = [nb for nb, plan in PLANS.items() if not isinstance(plan, Exception)]
ROWS = [pytest.param(notebook, expected, marks=[pytest.mark.slow] if expected.slow else [],
                     id=f"{notebook.split('_')[0]}-{expected.label}")
        for notebook in BUILT for expected in PLANS[notebook][1]]
TIERS = [pytest.param(notebook, slow, marks=[pytest.mark.slow] if slow else [],
                      id=f"{notebook.split('_')[0]}-{'slow' if slow else 'default'}")
         for notebook in BUILT for slow in (False, True) if any(is_slow(s) == slow for s in PLANS[notebook][0])]


def _short(notebook: str) -> str:
    return notebook.split("_")[0]


def _students(notebook: str, slow: bool) -> dict:
    """The notebook's students of one tier."""
    return {name: nb for name, nb in PLANS[notebook][0].items() if is_slow(name) == slow}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A function (notebook, slow) -> (grade-book rows by (student, grade_id), seconds); each tier graded once."""
    cache: dict[tuple[str, bool], tuple[dict, float] | Exception] = {}

    def get(notebook: str, slow: bool = False) -> tuple[dict, float]:
        key = (notebook, slow)
        if key not in cache:
            tier = "slow" if slow else "default"
            root = tmp_path_factory.mktemp(f"wrong_answers_{_short(notebook)}_{tier}")
            students = _students(notebook, slow)
            write_students(students, notebook, root / "submissions")
            try:
                rows, seconds = grade_with_cli(root / "submissions", notebook, root / "out", root)
            except Exception as error:  # noqa: BLE001 - remembered, so a failed run is not repeated for every row
                cache[key] = error
            else:
                cache[key] = ({(row["student"], row["grade_id"]): row for row in rows}, seconds)
                print(f"graded {notebook} ({tier} tier): {len(students)} students in {seconds:.1f} s")  # see -s or -rA
        if isinstance(cache[key], Exception):
            raise cache[key]
        return cache[key]

    return get


def test_every_notebook_with_exercises_has_a_wrong_answer_file() -> None:
    with_exercises = [p.name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if course_exercises(p.name)]
    missing = [name for name in with_exercises if name not in BY_NOTEBOOK]
    assert not missing, f"add tests/wrong_answers/wNN_<name>.py for {missing} (see CONTRIBUTING.md, 'Wrong answers')"


@pytest.mark.parametrize("notebook", list(BY_NOTEBOOK), ids=_short)
def test_every_named_cell_is_a_solution_cell(notebook: str) -> None:
    from tests.wrong_answers.harness import source_notebook

    solution_ids = {grade_id(cell) for cell in source_notebook(notebook).cells if is_solution(cell)}
    spec = BY_NOTEBOOK[notebook]
    unknown = sorted((set(spec.wrong) | set(spec.delegations) | set(spec.right)) - solution_ids)
    assert not unknown, f"{spec.module}: no solution cell with grade_id {unknown} in {notebook} ({sorted(solution_ids)})"


@pytest.mark.parametrize("notebook", list(BY_NOTEBOOK), ids=_short)
def test_every_exercise_has_a_delegation_and_a_deny_line(notebook: str) -> None:
    spec = BY_NOTEBOOK[notebook]
    problems = []
    for exercise in course_exercises(notebook):
        if not any(spec.delegations.get(sid) for sid in exercise.solution_ids):
            problems.append(f"{exercise.test_id}: no Delegation in {spec.module}.DELEGATIONS")
        if not deny_list(exercise.test_source):
            problems.append(f"{exercise.test_id}: its test cell has no '# deny:' line in its visible part")
    assert not problems, f"{notebook}: " + "; ".join(problems)


@pytest.mark.parametrize("notebook", list(BY_NOTEBOOK), ids=_short)
def test_every_exercise_has_three_wrong_answers_one_visible(notebook: str) -> None:
    spec = BY_NOTEBOOK[notebook]
    if not spec.wrong:
        pytest.skip(f"{spec.module} has delegations only: the wrong answers for {notebook} are due with its notebook issue")
    problems = []
    for exercise in course_exercises(notebook):
        entries = [entry for sid in exercise.solution_ids for entry in spec.wrong.get(sid, [])]
        if len(entries) < 3:
            problems.append(f"{exercise.test_id} has {len(entries)} wrong answers (at least 3)")
        if not any(entry.visible is not None for entry in entries):
            problems.append(f"{exercise.test_id} has no wrong answer with visible=... (at least 1)")
    assert not problems, f"{spec.module}: " + "; ".join(problems)


@pytest.mark.parametrize("notebook", GRADED, ids=_short)
def test_students_can_be_built(notebook: str) -> None:
    plan = PLANS[notebook]
    assert not isinstance(plan, Exception), f"{notebook}: {type(plan).__name__}: {plan}"


@pytest.mark.parametrize(("notebook", "slow"), TIERS)
def test_one_row_per_student_and_exercise(graded, notebook: str, slow: bool) -> None:
    rows, _ = graded(notebook, slow)
    students = set(_students(notebook, slow))
    expected = {(student, e.test_id) for student in students for e in course_exercises(notebook)}
    assert set(rows) == expected, f"missing {sorted(expected - set(rows))}, unexpected {sorted(set(rows) - expected)}"


@pytest.mark.parametrize(("notebook", "expected"), ROWS)
def test_grade_book_row(graded, notebook: str, expected: Expected) -> None:
    rows, _ = graded(notebook, expected.slow)
    exercise = next(e for e in course_exercises(notebook) if e.test_id == expected.test_id)
    problem = row_problem(rows.get((expected.student, expected.test_id)), expected, deny_list(exercise.test_source))
    assert problem is None, f"{notebook}: {problem}"


def _row(points: float, feedback: str, max_points: float = 2) -> dict:
    return {"points": str(points), "max_points": str(max_points), "feedback": feedback}


def test_the_row_checks_can_fail() -> None:
    """row_problem rejects each way a row can be wrong (so a green row means something)."""
    from tests.wrong_answers.spec import Delegation, Wrong

    wrong = Expected("wrong_1", "ex1_test", "wrong", [Wrong("w", "x = 1", visible=r"above the diagonal")])
    denied = Expected("delegation_1", "ex1_test", "delegation", [Delegation("d", "x = 1")])
    paths = ["utils.attention.causal_mask"]
    assert row_problem(None, wrong, paths) is not None
    assert row_problem(_row(2, "passed"), Expected("stub", "ex1_test", "zero"), paths) is not None
    assert row_problem(_row(0, "failed: x"), Expected("solution", "ex1_test", "full"), paths) is not None
    assert row_problem(_row(2, "passed"), wrong, paths) is not None, "full marks for a wrong answer"
    assert row_problem(_row(0, "failed in the hidden tests: AssertionError"), wrong, paths) is not None
    assert row_problem(_row(0, "failed: CheckFailed: on the diagonal"), wrong, paths) is not None, "regex"
    assert row_problem(_row(0, "failed: CheckFailed: -inf above the diagonal"), wrong, paths) is None
    assert row_problem(_row(2, "passed"), denied, paths) is not None, "full marks for a delegation"
    assert row_problem(_row(0, "failed: NameError: name 'cm' is not defined"), denied, paths) is not None
    assert row_problem(_row(0, "failed: f calls utils.attention.causal_mask, ..."), denied, []) is not None
    assert row_problem(_row(0, "failed: f calls utils.attention.causal_mask, ..."), denied, paths) is None


def test_wrong_k_holds_the_kth_wrong_answer_of_every_exercise() -> None:
    """The students of notebook 08: one submission carries many exercises' wrong answers."""
    spec = BY_NOTEBOOK["08_masks_copy_failure.ipynb"]
    students, expected = plan_students(spec)
    wrong_k = max(len(entries) for entries in spec.wrong.values())
    delegation_k = max(len(entries) for entries in spec.delegations.values())
    assert sorted(students) == sorted(["solution", "stub"] + [f"wrong_{k + 1}" for k in range(wrong_k)]
                                      + [f"delegation_{k + 1}" for k in range(delegation_k)])
    sources = {grade_id(c): c.source for c in students["wrong_1"].cells if is_solution(c)}
    assert all(sources[gid] == entries[0].source for gid, entries in spec.wrong.items())
    added = [c for c in students["delegation_4"].cells if c.cell_type == "code" and "types.FunctionType" in c.source]
    assert len(added) == 1 and not is_solution(added[0]), "a delegation's `before` cell is a cell the student added"
    assert len([e for e in expected if e.kind == "wrong"]) == sum(len(v) for v in spec.wrong.values())
