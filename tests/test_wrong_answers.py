"""Every exercise tells wrong answers apart: graded by the real `python -m utils.grading grade`, row by row.

For each file tests/wrong_answers/wNN_*.py one grading run grades all of its students (see
tests/wrong_answers/harness.py): the solution gets full marks, the released stub 0, each wrong
answer less than full (the ones marked `visible` stopped by the visible checks with the given
message), each delegation to the reference 0 with the denied function named.
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
ROWS = [(notebook, expected) for notebook in BUILT for expected in PLANS[notebook][1]]


def _short(notebook: str) -> str:
    return notebook.split("_")[0]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A function notebook -> (grade-book rows by (student, grade_id), seconds); each notebook graded once."""
    cache: dict[str, tuple[dict, float] | Exception] = {}

    def get(notebook: str) -> tuple[dict, float]:
        if notebook not in cache:
            root = tmp_path_factory.mktemp(f"wrong_answers_{_short(notebook)}")
            students = PLANS[notebook][0]
            write_students(students, notebook, root / "submissions")
            try:
                rows, seconds = grade_with_cli(root / "submissions", notebook, root / "out", root)
            except Exception as error:  # noqa: BLE001 - remembered, so a failed run is not repeated for every row
                cache[notebook] = error
            else:
                cache[notebook] = ({(row["student"], row["grade_id"]): row for row in rows}, seconds)
                print(f"graded {notebook}: {len(students)} students in {seconds:.1f} s")
        if isinstance(cache[notebook], Exception):
            raise cache[notebook]
        return cache[notebook]

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
    unknown = sorted((set(spec.wrong) | set(spec.delegations)) - solution_ids)
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


@pytest.mark.parametrize("notebook", [nb for nb in BUILT if PLANS[nb][0]], ids=_short)
def test_one_row_per_student_and_exercise(graded, notebook: str) -> None:
    rows, _ = graded(notebook)
    students = set(PLANS[notebook][0])
    expected = {(student, e.test_id) for student in students for e in course_exercises(notebook)}
    assert set(rows) == expected, f"missing {sorted(expected - set(rows))}, unexpected {sorted(set(rows) - expected)}"


@pytest.mark.parametrize(("notebook", "expected"), ROWS, ids=[f"{_short(nb)}-{e.label}" for nb, e in ROWS])
def test_grade_book_row(graded, notebook: str, expected: Expected) -> None:
    rows, _ = graded(notebook)
    exercise = next(e for e in course_exercises(notebook) if e.test_id == expected.test_id)
    problem = row_problem(rows.get((expected.student, expected.test_id)), expected, deny_list(exercise.test_source))
    assert problem is None, f"{notebook}: {problem}"
