"""The instructor's cycle end to end: release, a student's run in a fresh kernel, collect, grade, feedback, re-grade.

Grading runs in the bubblewrap sandbox where it works (`--sandbox required`), else without (`off`).
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from utils.grading import bwrap
from utils.grading.__main__ import main as cli
from utils.grading.notebook import grade_id

SOURCE = Path(__file__).parent / "fixtures" / "grading" / "source" / "assignment.ipynb"
NAME = SOURCE.name
EX1, EX2, EX3 = "ex1_temperature_softmax", "ex2_keep_top_k", "ex3_uniform_perplexity"
NOT_A_DISTRIBUTION = "def temperature_softmax(logits, T):\n    return logits"
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"


def _cell(nb, gid: str):
    return next(cell for cell in nb.cells if grade_id(cell) == gid)


def _errors(cell) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def _text(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def _rows(book: Path) -> dict[tuple[str, str], dict]:
    with open(book, newline="") as file:
        return {(r["student"], r["grade_id"]): r for r in csv.DictReader(file)}


def test_release_run_collect_grade_feedback_regrade(tmp_path: Path, capsys) -> None:
    # 1. Release.
    release = tmp_path / "release"
    assert cli(["release", "--source", str(SOURCE.parent), "--out", str(release)]) == 0
    handout = nbformat.read(release / NAME, as_version=4)
    solutions = nbformat.read(SOURCE, as_version=4)

    # 2. A student works on the handout in a fresh kernel: exercise 1 wrong, 2 right, 3 not done.
    ada = nbformat.read(release / NAME, as_version=4)
    _cell(ada, EX1).source = NOT_A_DISTRIBUTION
    _cell(ada, EX2).source = _cell(solutions, EX2).source
    NotebookClient(ada, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert _errors(_cell(ada, EX1 + "_test")) == [
        "CheckFailed: temperature_softmax(logits, 2.0): probabilities must be finite and non-negative"]
    assert "✓ Exercise 2: all visible checks passed" in _text(_cell(ada, EX2 + "_test"))
    assert _errors(_cell(ada, EX3 + "_test")) == [
        "NotImplementedError: Exercise 3: replace this line with your solution"]

    # 3. Collect: one folder per student (ada's run with its outputs, bob the solutions, cy the handout as is).
    submissions = tmp_path / "submissions"
    for student, nb in {"ada": ada, "bob": solutions, "cy": handout}.items():
        (submissions / student).mkdir(parents=True)
        nbformat.write(nb, submissions / student / NAME)

    # 4. Grade.
    out = tmp_path / "grades"
    grade = ["grade", str(submissions), "--source", str(SOURCE.parent), "--out", str(out), "--timeout", "60",
             "--sandbox", SANDBOX]
    assert cli(grade) == 0
    rows = _rows(out / "grades.csv")
    points = {key: float(row["points"]) for key, row in rows.items()}
    assert points == {("ada", EX1 + "_test"): 0, ("ada", EX2 + "_test"): 3, ("ada", EX3 + "_test"): 0,
                      ("bob", EX1 + "_test"): 2, ("bob", EX2 + "_test"): 3, ("bob", EX3 + "_test"): 1,
                      ("cy", EX1 + "_test"): 0, ("cy", EX2 + "_test"): 0, ("cy", EX3 + "_test"): 0}
    assert "graded 3 student(s): 9 / 18 points" in capsys.readouterr().out

    # 5. Feedback a student can read.
    feedback = (out / "feedback" / "ada.md").read_text()
    assert "## assignment.ipynb: 3 / 6 points" in feedback
    assert "probabilities must be finite and non-negative" in feedback
    assert "Exercise 3: replace this line with your solution" in feedback
    assert "BEGIN HIDDEN" not in feedback and "_reference_softmax" not in feedback
    others = {s: (out / "feedback" / f"{s}.md").read_text() for s in ("bob", "cy")}

    # 6. Ada fixes exercise 1; only ada is graded again.
    fixed = nbformat.read(submissions / "ada" / NAME, as_version=4)
    _cell(fixed, EX1).source = _cell(solutions, EX1).source
    nbformat.write(fixed, submissions / "ada" / NAME)
    before = _rows(out / "grades.csv")
    assert cli([*grade, "--students", "ada"]) == 0
    after = _rows(out / "grades.csv")
    assert float(after[("ada", EX1 + "_test")]["points"]) == 2 and after[("ada", EX1 + "_test")]["feedback"] == "passed"
    assert {k: v for k, v in after.items() if k[0] != "ada"} == {k: v for k, v in before.items() if k[0] != "ada"}
    assert {s: (out / "feedback" / f"{s}.md").read_text() for s in ("bob", "cy")} == others
    assert "## assignment.ipynb: 5 / 6 points" in (out / "feedback" / "ada.md").read_text()
    shutil.rmtree(submissions)
