"""`python -m utils.grading release`: student versions of the fixture and of the course notebooks."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import nbformat
import pytest

from utils.grading.__main__ import main as cli
from utils.grading.assemble import plan_submission
from utils.grading.grade import Source, rows_from_run
from utils.grading.notebook import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    SourceError,
    grade_id,
    is_solution,
    is_test,
    read_notebook,
    validate_source,
)
from utils.grading.deny import DenyTable, denied_paths
from utils.grading.release import release_notebook
from utils.grading.sandbox import RunResult, Zygote, preload_modules

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "fixtures" / "grading" / "source" / "assignment.ipynb"
COURSE_NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# The dynamic check runs notebook 01 by default; LM_GRADING_ALL_NOTEBOOKS=1 runs every notebook (slow).
RUN_ALL = os.environ.get("LM_GRADING_ALL_NOTEBOOKS", "") == "1"
DYNAMIC = [p for p in COURSE_NOTEBOOKS if RUN_ALL or p.name.startswith("01_")]
STUDENT_FACING = ("NotImplementedError: Exercise", "CheckFailed: ")


def _source() -> nbformat.NotebookNode:
    return nbformat.read(SOURCE, as_version=4)


def _by_id(nb, gid: str):
    return next(cell for cell in nb.cells if grade_id(cell) == gid)


def test_release_stubs_solutions_and_removes_hidden_tests() -> None:
    source = _source()
    before = copy.deepcopy(source)
    student = release_notebook(source)
    assert source == before, "the source notebook is not changed"
    solution = _by_id(student, "ex2_keep_top_k").source
    assert solution.splitlines() == [
        "def keep_top_k(logits: torch.Tensor, k: int) -> torch.Tensor:",
        '    """Logits with all but the k largest (last dimension) set to -inf."""',
        "    # YOUR CODE HERE",
        '    raise NotImplementedError("Exercise 2: replace this line with your solution")',
    ]
    test = _by_id(student, "ex2_keep_top_k_test").source
    assert test == _by_id(source, "ex2_keep_top_k_test").source.split("\n### BEGIN HIDDEN TESTS")[0]
    assert "check(int(torch.isfinite(_kept).sum()) == 2" in test, "visible checks stay"
    for cell in student.cells:
        assert BEGIN_SOLUTION not in cell.source and BEGIN_HIDDEN not in cell.source
        if grade_id(cell):
            assert cell.metadata == _by_id(source, grade_id(cell)).metadata, "nbgrader metadata is kept"
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_release_command_writes_student_versions(tmp_path: Path, capsys) -> None:
    assert cli(["release", "--source", str(SOURCE.parent), "--out", str(tmp_path / "release")]) == 0
    written = read_notebook(tmp_path / "release" / SOURCE.name)
    assert written == release_notebook(_source())
    assert "released" in capsys.readouterr().out


def _set_meta(gid: str, **changes):
    def change(nb):
        _by_id(nb, gid).metadata.nbgrader.update(changes)
    return change


def _set_source(gid: str, text: str):
    def change(nb):
        _by_id(nb, gid).source = text
    return change


MALFORMED = {
    "no markers": (_set_source("ex1_temperature_softmax", "def temperature_softmax(logits, T):\n    return logits"),
                   "solution cell without '### BEGIN SOLUTION' / '### END SOLUTION' markers"),
    "unclosed marker": (_set_source("ex1_temperature_softmax", "### BEGIN SOLUTION\nx = 1"),
                        "'### BEGIN SOLUTION' on line 1 is never closed by '### END SOLUTION'"),
    "duplicate grade_id": (_set_meta("ex2_keep_top_k", grade_id="ex1_temperature_softmax"),
                           "grade_id 'ex1_temperature_softmax' is used twice"),
    "no points": (_set_meta("ex1_temperature_softmax_test", points=0), "a test cell needs positive 'points', got 0"),
    "unlocked test": (_set_meta("ex3_uniform_perplexity_test", locked=False), "a test cell must be locked"),
    "old schema": (_set_meta("ex3_uniform_perplexity", schema_version=1), "schema_version must be 3, got 1"),
    "bad grade_id": (_set_meta("ex3_uniform_perplexity", grade_id="ex 3"), "grade_id must be letters, digits"),
    "heading points": (_set_meta("ex2_keep_top_k_test", points=4), "Exercise 2: heading says 3 points, its test cells carry 4"),
    "hidden markers outside a test": (_set_source("ex3_uniform_perplexity", "### BEGIN SOLUTION\n### END SOLUTION\n"
                                                  "### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS"),
                                      "hidden tests belong in a test cell"),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_source_gives_a_clear_error(case: str, tmp_path: Path, capsys) -> None:
    change, message = MALFORMED[case]
    nb = _source()
    change(nb)
    with pytest.raises(SourceError) as err:
        release_notebook(nb, "broken.ipynb")
    assert message in str(err.value) and str(err.value).startswith("broken.ipynb: ")
    nbformat.write(nb, tmp_path / "broken.ipynb")
    assert cli(["release", "--source", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err


def test_invalid_json_and_missing_source_are_clear_errors(tmp_path: Path, capsys) -> None:
    (tmp_path / "broken.ipynb").write_text("{ not json")
    with pytest.raises(SourceError, match="not a valid notebook"):
        read_notebook(tmp_path / "broken.ipynb")
    assert cli(["release", "--source", str(tmp_path)]) == 2
    assert "not a valid notebook (invalid JSON" in capsys.readouterr().err
    assert cli(["release", "nope.ipynb", "--source", str(tmp_path)]) == 2
    assert "no such source notebook(s)" in capsys.readouterr().err


@pytest.mark.parametrize("path", COURSE_NOTEBOOKS, ids=lambda p: p.stem)
def test_course_notebook_releases(path: Path) -> None:
    """Every notebook validates; the student version differs only in its exercise cells."""
    source = read_notebook(path)
    exercise_list = validate_source(source, path.name)
    student = release_notebook(source, path.name)
    assert len(student.cells) == len(source.cells)
    for original, released in zip(source.cells, student.cells):
        if is_solution(original):
            assert "# YOUR CODE HERE" in released.source and BEGIN_SOLUTION not in released.source
        elif is_test(original):
            assert BEGIN_HIDDEN not in released.source
            assert released.source.strip(), f"{grade_id(original)}: a test cell needs visible checks"
            assert denied_paths(released.source) == denied_paths(original.source), "students see the deny-list"
            assert "checks_passed(" in released.source, f"{grade_id(original)}: visible checks must say they passed"
        else:
            assert released.source == original.source
    if exercise_list:
        assert all(e.points > 0 and e.number is not None for e in exercise_list), "each exercise has a heading"
        missing = [e.test_id for e in exercise_list if not e.denied]
        assert not missing, f"exercises without a '# deny:' line (name the package function they ask for): {missing}"
        assert not DenyTable.build({e.test_id: e.denied for e in exercise_list}).errors, "every denied path resolves"


def _run(zygote: Zygote, source_nb, submission_nb, timeout_s: float) -> tuple[object, RunResult]:
    exercise_list = validate_source(source_nb)
    plan = plan_submission(source_nb, submission_nb, exercise_list)
    job = plan.job()
    return plan, zygote.run(job, timeout_s, 4 * 2**30)


def _check_student_version(zygote: Zygote, source_nb, timeout_s: float) -> None:
    """Runs to the first exercise without error; each exercise then fails with a student-facing message."""
    plan, result = _run(zygote, source_nb, release_notebook(source_nb), timeout_s)
    assert not result.timed_out and any(r.get("event") == "done" for r in result.records), result.log_tail
    exercise_ids = {grade_id(c) for c in source_nb.cells if is_solution(c) or is_test(c)}
    if not exercise_ids:
        return  # nothing to release: the notebook runs as it is
    errors = {r["index"]: r["message"] for r in result.records if r.get("event") == "cell_error"}
    first = min(i for i, cell in enumerate(plan.cells) if cell["grade_id"] in exercise_ids)
    assert not {i: m for i, m in errors.items() if i < first}, "cells before the first exercise run cleanly"
    outside = {i: m for i, m in errors.items() if plan.cells[i]["grade_id"] not in exercise_ids}
    assert not outside, f"cells after an exercise must not need the student's solution: {outside}"
    tests = [r for r in result.records if r.get("event") == "test"]
    assert len(tests) == sum(is_test(c) for c in source_nb.cells)
    for record in tests:
        assert not record["passed"], f"{record['grade_id']} passes on the stub"
        assert record["message"].startswith(STUDENT_FACING), f"{record['grade_id']}: {record['message']}"


@pytest.fixture(scope="module")
def zygote():
    notebooks = [read_notebook(SOURCE)] + [read_notebook(p) for p in DYNAMIC]
    preload = ["torch"] + [m for nb in notebooks for m in preload_modules(plan_submission(nb, nb, []).imports)]
    with Zygote(preload) as process:
        yield process


def test_fixture_student_version_fails_with_student_facing_messages(zygote) -> None:
    _check_student_version(zygote, _source(), timeout_s=60)


@pytest.mark.parametrize("path", DYNAMIC, ids=lambda p: p.stem)
def test_course_notebook_student_version_and_solution(zygote, path: Path) -> None:
    """The student version behaves as promised, and the solution notebook itself gets full points."""
    source_nb = read_notebook(path)
    _check_student_version(zygote, source_nb, timeout_s=300)
    plan, result = _run(zygote, source_nb, source_nb, timeout_s=300)
    source = Source(path.name, source_nb, validate_source(source_nb))
    rows = rows_from_run("solution", source, plan, result, 300)
    assert rows and all(row.points == row.max_points for row in rows), [r.feedback for r in rows]
