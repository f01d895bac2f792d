"""The instructor's side of `grade`: which notebooks it grades, the per-student CSV, a helper that does not start.

Grading runs in the bubblewrap sandbox where it works here (`--sandbox required`), else with `--sandbox off`;
these tests are about what the instructor sees, not about the sandbox.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from utils.grading import bwrap, sandbox
from utils.grading.__main__ import main as cli
from utils.grading.gradebook import Row, student_totals
from utils.grading.notebook import grade_id
from utils.grading.release import release_notebook

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "fixtures" / "grading" / "source" / "assignment.ipynb"
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"


@pytest.fixture(scope="module")
def two_sources(tmp_path_factory) -> Path:
    """A source folder with two notebooks: hw1 (the fixture assignment) and hw2 (the same, another name)."""
    folder = tmp_path_factory.mktemp("sources")
    for name in ("hw1.ipynb", "hw2.ipynb"):
        shutil.copy(SOURCE, folder / name)
    return folder


def _class(root: Path, notebooks: dict[str, str]) -> Path:
    """Students handing in hw1 only: student -> 'solution' or 'stub'."""
    source = nbformat.read(SOURCE, as_version=4)
    for student, kind in notebooks.items():
        (root / student).mkdir(parents=True)
        nb = source if kind == "solution" else release_notebook(source)
        nbformat.write(nb, root / student / "hw1.ipynb")
    return root


def _csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_grade_takes_the_notebooks_handed_in_and_writes_a_row_per_student(two_sources, tmp_path, capsys) -> None:
    submissions = _class(tmp_path / "subs", {"ada": "solution", "bob": "stub"})
    out = tmp_path / "out"
    assert cli(["grade", str(submissions), "--source", str(two_sources), "--out", str(out), "--sandbox", SANDBOX]) == 0
    printed = capsys.readouterr().out
    assert "grading 1 notebook(s) found in the submissions: hw1.ipynb (1 other source notebook(s) handed in by nobody" \
           in printed and "graded 2 student(s): 6 / 12 points in all" in printed, printed
    assert {row["notebook"] for row in _csv(out / "grades.csv")} == {"hw1.ipynb"}, "no 'was not submitted' rows"
    assert _csv(out / "students.csv") == [
        {"student": "ada", "total": "6", "hw1.ipynb": "6", "max_points": "6"},
        {"student": "bob", "total": "0", "hw1.ipynb": "0", "max_points": "6"},
    ]
    # Naming a notebook grades it for everyone, handed in or not.
    assert cli(["grade", str(submissions), "--source", str(two_sources), "--out", str(out), "--sandbox", SANDBOX,
                "--notebooks", "hw2.ipynb"]) == 0
    capsys.readouterr()
    rows = _csv(out / "grades.csv")
    assert {r["feedback"] for r in rows if r["notebook"] == "hw2.ipynb"} == {"0 points: hw2.ipynb was not submitted"}
    assert _csv(out / "students.csv")[0] == {"student": "ada", "total": "6", "hw1.ipynb": "6", "hw2.ipynb": "0",
                                             "max_points": "12"}


def test_no_notebook_handed_in_is_a_clear_error(two_sources, tmp_path, capsys) -> None:
    (tmp_path / "subs" / "ada").mkdir(parents=True)
    (tmp_path / "subs" / "ada" / "other.ipynb").write_text("{}")
    assert cli(["grade", str(tmp_path / "subs"), "--source", str(two_sources), "--out", str(tmp_path / "out"),
                "--sandbox", SANDBOX]) == 2
    err = capsys.readouterr().err
    assert "no student folder holds any of the source notebooks (hw1.ipynb, hw2.ipynb)" in err, err
    assert not (tmp_path / "out").exists()


def test_student_totals_leave_ungraded_notebooks_empty() -> None:
    rows = [Row("ada", "a.ipynb", "t1", 2, 3, "x"), Row("ada", "a.ipynb", "t2", 1, 1, "x"),
            Row("bob", "b.ipynb", "t1", 4, 5, "x")]
    columns, table = student_totals(rows)
    assert columns == ["student", "total", "a.ipynb", "b.ipynb", "max_points"]
    assert table == [{"student": "ada", "total": "3", "a.ipynb": "3", "b.ipynb": "", "max_points": "9"},
                     {"student": "bob", "total": "4", "a.ipynb": "", "b.ipynb": "4", "max_points": "9"}]


def test_a_helper_that_cannot_start_prints_its_own_error_and_the_likely_cause(monkeypatch) -> None:
    monkeypatch.setattr(sandbox, "HELPER_MODULE", "lm_course_no_such_helper")
    with pytest.raises(sandbox.HelperStartError) as failed:
        sandbox.Zygote(["torch"])
    message = str(failed.value)
    assert "failed to start (exit code 1)" in message
    assert "No module named lm_course_no_such_helper" in message, "the helper's own stderr"
    assert "Likely cause: see its last lines above" in message


def test_the_diagnosis_names_the_package_when_utils_is_not_importable() -> None:
    tail = "Traceback (most recent call last):\n  ...\nModuleNotFoundError: No module named 'utils'"
    text = sandbox.diagnose_start_failure(tail, 1, sandboxed=True)
    assert "the course package `utils` is not importable inside the sandbox" in text
    assert str(bwrap.course_root()) in text and "second clone" in text and "pip install -e ." in text
    assert "cannot import numpy" in sandbox.diagnose_start_failure("No module named 'numpy'", 1, sandboxed=False)
    assert "bubblewrap could not build the sandbox" in sandbox.diagnose_start_failure("bwrap: Can't mount", 1, True)


def test_a_second_clone_grades_with_its_own_package(tmp_path) -> None:
    """A copy of the course run from its folder, whatever the environment's editable install points to."""
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "utils", clone / "utils", ignore=shutil.ignore_patterns("__pycache__"))
    submissions = tmp_path / "subs"
    nb = nbformat.read(SOURCE, as_version=4)
    for cell in nb.cells:
        if grade_id(cell) == "ex3_uniform_perplexity":
            cell.source = "import utils\ndef uniform_perplexity(V):\n    raise RuntimeError('from ' + utils.__file__)"
    (submissions / "ada").mkdir(parents=True)
    nbformat.write(nb, submissions / "ada" / SOURCE.name)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-m", "utils.grading", "grade", str(submissions), "--source",
                           str(SOURCE.parent), "--out", str(tmp_path / "out"), "--sandbox", SANDBOX],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    feedback = {r["grade_id"]: r["feedback"] for r in _csv(tmp_path / "out" / "grades.csv")}
    assert f"RuntimeError: from {clone / 'utils' / '__init__.py'}" in feedback["ex3_uniform_perplexity_test"], feedback
