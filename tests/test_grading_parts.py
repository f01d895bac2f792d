"""Partial credit: parts declared in a test cell, validated, recorded by the child, scored and worded by the parent.

No process runs here (tests/test_grading_operations.py grades parts with the real command): the
declarations, the `part` block in and out of the grader, and the scoring of given records.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest

import utils.grading.parts as parts_module
from utils.grading.assemble import Plan
from utils.grading.notebook import Exercise, SourceError, declared_parts, grade_id, part_problems, validate_source
from utils.grading.parts import part
from utils.grading.rows import _scored, tampered
from utils.grading.scrub import public_text, scrub

SOURCE = Path(__file__).parent / "fixtures" / "grading" / "operations" / "operations.ipynb"
TWO_PARTS = 'with part("the mean", 1):\n    assert m == 1\nwith part("the spread", 2.5):\n    assert s == 2\n'


def test_parts_are_read_from_literals_in_source_order() -> None:
    assert declared_parts(TWO_PARTS) == [("the mean", 1.0), ("the spread", 2.5)]
    assert declared_parts("import utils.grading.parts as p\nwith p.part('x', 1):\n    pass") == [("x", 1.0)]
    assert part_problems(TWO_PARTS, 4) == []


@pytest.mark.parametrize(("source", "points", "problem"), [
    ("with part(name, 1):\n    pass", 3, "needs a literal name and literal positive points"),
    ("with part('a', -1):\n    pass", 3, "needs a literal name"),
    ("with part('a', points=1):\n    pass", 3, "needs a literal name"),
    ("with part('a', 1):\n    pass\nwith part('a', 1):\n    pass", 3, "part name 'a' is used twice"),
    (TWO_PARTS, 3, "its parts carry 3.5 points, more than the cell's 3"),
])
def test_bad_parts_are_problems(source: str, points: float, problem: str) -> None:
    assert any(problem in text for text in part_problems(source, points)), part_problems(source, points)


def test_the_release_refuses_a_test_cell_with_bad_parts() -> None:
    nb = nbformat.read(SOURCE, as_version=4)
    cell = next(c for c in nb.cells if grade_id(c) == "ex7_describe_test")
    cell.source = cell.source.replace('with part("the mean of samples of 2 to 50 values", 1):',
                                      'with part("the mean of samples of 2 to 50 values", 2):')
    with pytest.raises(SourceError, match="its parts carry 4 points, more than the cell's 3"):
        validate_source(nb)
    assert [e.parts for e in validate_source(nbformat.read(SOURCE, as_version=4)) if e.parts] == [
        [("the mean of samples of 2 to 50 values", 1.0), ("the unbiased standard deviation (divide by N - 1)", 2.0)]]


def test_a_part_is_a_plain_block_outside_the_grader_and_records_inside(monkeypatch) -> None:
    with pytest.raises(AssertionError):
        with part("fails", 1):
            raise AssertionError("as in the student's notebook")
    seen = []
    monkeypatch.setattr(parts_module, "_recorder", lambda name, points, error: seen.append((name, points, error)))
    with part("fails", 1):
        raise AssertionError("recorded")
    with part("passes", 2):
        pass
    with pytest.raises(SystemExit):
        with part("exits", 1):
            raise SystemExit(0)
    assert [(n, p, type(e).__name__) for n, p, e in seen] == [("fails", 1.0, "AssertionError"), ("passes", 2.0, "NoneType")]
    with pytest.raises(ValueError, match="points must be a positive number"):
        part("zero", 0)


EXERCISE = Exercise("ex_test", 4.0, "### BEGIN HIDDEN TESTS\n" + TWO_PARTS + "### END HIDDEN TESTS",
                    parts=[("the mean", 1.0), ("the spread", 2.5)])


def _part(name: str, passed: bool, line: int | None = None) -> dict:
    return {"event": "part", "grade_id": "ex_test", "name": name, "points": dict(EXERCISE.parts)[name],
            "passed": passed, "message": "" if passed else "AssertionError", "line": line}


@pytest.mark.parametrize(("finished", "reported", "points", "start"), [
    (True, {"the mean": True, "the spread": True}, 4.0, "passed"),
    (True, {"the mean": True, "the spread": False}, 1.5,
     "partly passed, 1.5 of 4 points: ✓ the mean; ✗ the spread (hidden test): AssertionError"),
    (False, {"the mean": True}, 1.0, "partly passed, 1 of 4 points: ✓ the mean; ✗ the spread: not reached; then failed: X"),
    (True, {}, 0.5, "partly passed, 0.5 of 4 points: ✗ the mean: not reached; ✗ the spread: not reached"),
    (False, {"the mean": False}, 0.0, "failed: ✗ the mean: AssertionError; ✗ the spread: not reached; then failed: X"),
    (False, {}, 0.0, "failed: X"),
])
def test_scoring_adds_the_parts_that_passed_and_the_rest_when_the_cell_finished(finished, reported, points, start):
    records = {name: _part(name, passed, line=4 if name == "the spread" else None) for name, passed in reported.items()}
    record = {"event": "test", "passed": finished}
    got, text = _scored(EXERCISE, record, records, None if finished else "failed: X", None)
    assert (got, text[: len(start)]) == (points, start), text


def test_part_records_are_accepted_only_inside_their_test_and_once() -> None:
    plan = Plan(cells=[{"kind": "code", "grade_id": "ex", "source": "", "role": "solution", "exercise": "ex_test"},
                       {"kind": "test", "grade_id": "ex_test", "source": "", "role": "test", "exercise": "ex_test"}])
    declared = {"ex_test": dict(EXERCISE.parts)}
    cell0, cell1 = {"event": "cell", "index": 0}, {"event": "cell", "index": 1}
    test = {"event": "test", "grade_id": "ex_test", "passed": True}
    assert not tampered([cell0, cell1, _part("the mean", True), _part("the spread", False), test], plan, declared)
    assert tampered([cell0, _part("the mean", True), cell1, test], plan, declared), "a part outside its test cell"
    assert tampered([cell0, cell1, _part("the mean", True), _part("the mean", True), test], plan, declared), "twice"
    assert tampered([cell0, cell1, {**_part("the mean", True), "name": "extra"}, test], plan, declared), "undeclared"
    assert tampered([cell0, cell1, {**_part("the mean", True), "points": 4.0}, test], plan, declared), "other points"
    assert tampered([cell0, cell1, test, _part("the mean", True)], plan, declared), "after the test record"


def test_the_feedback_filter_keeps_the_names_of_hidden_parts() -> None:
    from utils.grading.scrub import hidden_text

    nb = nbformat.read(SOURCE, as_version=4)
    exercises = validate_source(copy.deepcopy(nb))
    hidden, public = hidden_text(exercises), public_text(nb, exercises)
    text = "partly passed, 1 of 3 points: ✗ the unbiased standard deviation (divide by N - 1) (hidden test): X"
    assert scrub(text, hidden, public) == text
    assert "[hidden test removed]" in scrub("assert abs(describe(_s)[1] - float(_s.std())) < 1e-5", hidden, public)
