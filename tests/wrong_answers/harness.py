"""Build one submission per "student" from a wrong-answer file, grade them with the real CLI, judge each row.

Students of a notebook: `solution` (the source notebook), `stub` (the released version),
`wrong_k` (the released version with the k-th wrong answer of EVERY exercise, the source's
solution where an exercise has fewer), `delegation_k` (the same with the k-th delegation) and
`right_k` (the same with the k-th other right answer). Tiers: the default one grades the solution,
the stub, `wrong_1` and `delegation_1`; the slow one (`pytest -m slow`) the right answers and the
other wrong answers and delegations. One `python -m utils.grading grade` run grades the students of a tier.
"""

from __future__ import annotations

import copy
import csv
import importlib
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

from utils.grading import bwrap
from utils.grading.notebook import Exercise, grade_id, is_solution, read_notebook, validate_source
from utils.grading.release import release_notebook, strip_hidden_tests
from tests.wrong_answers.spec import Delegation, Right, Wrong

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
HERE = Path(__file__).resolve().parent
DENY_LINE = re.compile(r"^[ \t]*#[ \t]*deny:(.*)$", re.MULTILINE)
GRADE_TIMEOUT_S = 1800  # the whole grading run of one notebook (every student)


@dataclass
class WrongAnswerFile:
    """One file tests/wrong_answers/wNN_*.py: its notebook, wrong answers, delegations and other right answers."""

    module: str
    notebook: str
    wrong: dict[str, list[Wrong]]
    delegations: dict[str, list[Delegation]]
    right: dict[str, list[Right]] = field(default_factory=dict)


@dataclass
class Expected:
    """What one row (student, exercise) of the grade book must show."""

    student: str
    test_id: str
    kind: str  # "full", "zero", "wrong" or "delegation"
    entries: list[Wrong | Delegation | Right] = field(default_factory=list)

    @property
    def label(self) -> str:
        """A short test id: student, exercise and the entries' names."""
        names = "+".join(e.name for e in self.entries)
        return f"{self.student}-{self.test_id}" + (f"-{names}" if names else "")

    @property
    def slow(self) -> bool:
        """True when the row's student is graded in the slow tier only."""
        return is_slow(self.student)


def is_slow(student: str) -> bool:
    """The slow tier's students: every right answer, and every wrong answer and delegation but the first (the default
    tier grades the solution, the stub, wrong_1 and delegation_1, to keep CI within its 40 minutes)."""
    prefix, _, number = student.rpartition("_")
    if prefix == "right" and number.isdigit():
        return True
    return prefix in ("wrong", "delegation") and number.isdigit() and int(number) > 1


def _typed(module: str, value: object, what: str, kind: type) -> dict:
    """A dict grade_id -> list of `kind`, or TypeError naming the file and the bad entry."""
    if not isinstance(value, dict):
        raise TypeError(f"{module}.{what} must be a dict grade_id -> list of {kind.__name__}, got {type(value).__name__}")
    for gid, entries in value.items():
        if not isinstance(entries, list) or not all(isinstance(e, kind) for e in entries):
            raise TypeError(f"{module}.{what}[{gid!r}] must be a list of {kind.__name__}")
        names = [e.name for e in entries]
        if len(set(names)) != len(names):
            raise ValueError(f"{module}.{what}[{gid!r}]: names must be unique, got {names}")
    return value


def load_file(module: str) -> WrongAnswerFile:
    """Import one wrong-answer module (e.g. 'tests.wrong_answers.w08_masks_copy_failure') and check its types."""
    mod = importlib.import_module(module)
    notebook = getattr(mod, "NOTEBOOK", None)
    if not isinstance(notebook, str) or not (NOTEBOOKS / notebook).is_file():
        raise ValueError(f"{module}.NOTEBOOK must name a notebook in notebooks/, got {notebook!r}")
    return WrongAnswerFile(module, notebook, _typed(module, getattr(mod, "WRONG", {}), "WRONG", Wrong),
                           _typed(module, getattr(mod, "DELEGATIONS", {}), "DELEGATIONS", Delegation),
                           _typed(module, getattr(mod, "RIGHT", {}), "RIGHT", Right))


def wrong_answer_files() -> list[WrongAnswerFile]:
    """Every wrong-answer file of this package, in notebook order."""
    return [load_file(f"tests.wrong_answers.{path.stem}") for path in sorted(HERE.glob("w[0-9][0-9]_*.py"))]


def source_notebook(name: str) -> nbformat.NotebookNode:
    """The source notebook (with solutions) from notebooks/."""
    return read_notebook(NOTEBOOKS / name)


def course_exercises(name: str) -> list[Exercise]:
    """The exercises of a source notebook, validated as the grader validates them."""
    return validate_source(source_notebook(name), name)


def deny_list(test_source: str) -> list[str]:
    """Dotted paths of the `# deny:` lines in the visible part of a test cell."""
    visible = strip_hidden_tests(test_source)
    return [path.strip() for line in DENY_LINE.findall(visible) for path in line.split(",") if path.strip()]


def _exercise_of(exercise_list: list[Exercise]) -> dict[str, Exercise]:
    """solution grade_id -> its exercise."""
    return {sid: exercise for exercise in exercise_list for sid in exercise.solution_ids}


def _replace(nb: nbformat.NotebookNode, gid: str, entry: Wrong | Delegation | Right) -> None:
    """Put `entry` into the solution cell `gid` (and its `before` cell just above it)."""
    index = next(i for i, cell in enumerate(nb.cells) if is_solution(cell) and grade_id(cell) == gid)
    nb.cells[index].source = entry.source
    if entry.before:
        added = new_code_cell(entry.before)
        added.metadata["slideshow"] = {"slide_type": "-"}
        nb.cells.insert(index, added)


def plan_students(spec: WrongAnswerFile) -> tuple[dict[str, nbformat.NotebookNode], list[Expected]]:
    """The students' notebooks and what every row of the grade book must show."""
    source = source_notebook(spec.notebook)
    exercise_list = validate_source(source, spec.notebook)
    if not exercise_list:
        return {}, []  # nothing to grade
    released = release_notebook(source, spec.notebook)
    solutions = {grade_id(c): c.source for c in source.cells if is_solution(c)}
    students = {"solution": copy.deepcopy(source), "stub": released}
    expected = [Expected("solution", e.test_id, "full") for e in exercise_list]
    expected += [Expected("stub", e.test_id, "zero") for e in exercise_list]
    for prefix, kind, table in (("wrong", "wrong", spec.wrong), ("delegation", "delegation", spec.delegations),
                                ("right", "full", spec.right)):
        for k in range(max((len(entries) for entries in table.values()), default=0)):
            student, nb = f"{prefix}_{k + 1}", copy.deepcopy(released)
            for cell in nb.cells:
                if is_solution(cell):
                    cell.source = solutions[grade_id(cell)]
            chosen: dict[str, list] = {}
            for gid, entries in table.items():
                if k < len(entries):
                    _replace(nb, gid, entries[k])
                    chosen.setdefault(_exercise_of(exercise_list)[gid].test_id, []).append(entries[k])
            students[student] = nb
            expected += [Expected(student, test_id, kind, entries) for test_id, entries in chosen.items()]
    return students, expected


def write_students(students: dict[str, nbformat.NotebookNode], notebook: str, submissions: Path) -> None:
    """One folder per student holding their copy of the notebook."""
    for student, nb in students.items():
        (submissions / student).mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, submissions / student / notebook)


# These suites are about what each exercise tells apart, not about the sandbox: they grade in the bubblewrap sandbox
# where it works here (CI requires it: LM_REQUIRE_SANDBOX=1), else say so and grade with --sandbox off.
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"


def grade_with_cli(submissions: Path, notebook: str, out: Path, scratch: Path, jobs: int = 2) -> tuple[list[dict], float]:
    """Run `python -m utils.grading grade` on the submissions; the grade book's rows and the wall seconds (printed)."""
    env = {**os.environ, "IPYTHONDIR": str(scratch / "ipython"), "MPLCONFIGDIR": str(scratch / "matplotlib")}
    command = [sys.executable, "-m", "utils.grading", "grade", str(submissions), "--source", str(NOTEBOOKS),
               "--notebooks", notebook, "--out", str(out), "--jobs", str(jobs), "--sandbox", SANDBOX]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=GRADE_TIMEOUT_S)
    seconds = time.monotonic() - started
    print(f"{notebook}: graded in {seconds:.1f} s wall with --sandbox {SANDBOX}")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    with open(out / "grades.csv", newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file)), seconds


def row_problem(row: dict | None, expected: Expected, denied_paths: list[str]) -> str | None:
    """Why a grade-book row does not show what `expected` says (None when it does)."""
    where = f"{expected.student}/{expected.test_id}"
    if row is None:
        return f"{where}: no row in grades.csv"
    points, max_points, feedback = float(row["points"]), float(row["max_points"]), row["feedback"]
    shown = f"{where} got {points:g}/{max_points:g}: {feedback!r}"
    if expected.kind == "full":
        who = f"right answer {', '.join(e.name for e in expected.entries)}" if expected.entries else "the solution"
        return None if points == max_points and feedback.startswith("passed") else f"{who} must pass: {shown}"
    if expected.kind == "zero":
        return None if points == 0 else f"the released stub must score 0: {shown}"
    names = ", ".join(e.name for e in expected.entries)
    if expected.kind == "wrong":
        if points >= max_points:
            return f"wrong answer {names} must lose points: {shown}"
        for entry in expected.entries:
            if entry.visible is None:
                continue
            if not feedback.startswith("failed: "):
                return f"wrong answer {entry.name} must be stopped by the VISIBLE checks: {shown}"
            if not re.search(entry.visible, feedback):
                return f"wrong answer {entry.name}: the feedback must match {entry.visible!r}: {shown}"
        return None
    if points != 0:
        return f"delegation {names} calls the reference and must score 0: {shown}"
    for entry in expected.entries:
        wanted = [entry.denied] if entry.denied else denied_paths
        if not wanted:
            return f"{where}: the exercise's test cell declares no '# deny:' line, so nothing is denied: {shown}"
        if not any(path in feedback for path in wanted):
            return f"delegation {entry.name}: the feedback must name the denied function ({' or '.join(wanted)}): {shown}"
    return None
