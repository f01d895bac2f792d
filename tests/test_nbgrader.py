"""nbgrader itself (0.9.x) on the course's notebooks: the solution scores full marks and the released stub 0.

This holds the README's "nbgrader compatible" claim: `nbgrader generate_assignment` and
`nbgrader autograde` run in a temporary course folder (its own nbgrader_config.py and sqlite
gradebook, HOME pointed at the temporary folder), and the scores are read with
nbgrader.api.Gradebook. nbgrader cannot enforce the `# deny:` lines; the course's own grader
does (tests/test_wrong_answers.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from utils.grading.notebook import grade_id, is_solution, validate_source

nbgrader_api = pytest.importorskip("nbgrader.api", reason="nbgrader is not installed (pip install -r requirements-test.txt)")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ["01_autoregression.ipynb", "08_masks_copy_failure.ipynb"]
SLOW = {"08_masks_copy_failure.ipynb"}  # nbgrader runs the whole notebook twice (about 45 s of CI): 08 runs under -m slow
PARAMS = [pytest.param(name, marks=[pytest.mark.slow] if name in SLOW else []) for name in NOTEBOOKS]
ASSIGNMENT = "course"
STUDENTS = ("solution", "stub")
CONFIG = """c = get_config()
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "lm-course"
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.CourseDirectory.db_assignments = [dict(name={assignment!r})]
c.CourseDirectory.db_students = [dict(id="solution"), dict(id="stub")]
c.Execute.timeout = 300
c.Execute.allow_errors = True
"""


def _nbgrader(args: list[str], course: Path, env: dict) -> None:
    """Run one nbgrader command in the course folder; fail with its output when it fails."""
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args, "--debug"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"nbgrader {' '.join(args)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"


def _environment(tmp: Path) -> dict:
    """The test suite's environment with HOME and every Jupyter/IPython/matplotlib folder inside `tmp`."""
    env = dict(os.environ)
    for key, folder in (("HOME", "home"), ("JUPYTER_CONFIG_DIR", "jupyter/config"), ("JUPYTER_DATA_DIR", "jupyter/data"),
                        ("JUPYTER_RUNTIME_DIR", "jupyter/runtime"), ("IPYTHONDIR", "ipython"),
                        ("MPLCONFIGDIR", "matplotlib")):
        (tmp / folder).mkdir(parents=True, exist_ok=True)
        env[key] = str(tmp / folder)
    env.setdefault("MPLBACKEND", "Agg")
    return env


@pytest.fixture(scope="module")
def gradebook(request, tmp_path_factory):
    """The notebooks this session selected, generated, submitted by a `solution` and a `stub` student, autograded."""
    selected = sorted({item.callspec.params["name"] for item in request.session.items  # notebook cells have no module
                       if getattr(getattr(item, "module", None), "__name__", None) == __name__ and hasattr(item, "callspec")
                       and "name" in item.callspec.params})
    tmp = tmp_path_factory.mktemp("nbgrader")
    course, env = tmp / "course", _environment(tmp)
    (course / "source" / ASSIGNMENT).mkdir(parents=True)
    (course / "nbgrader_config.py").write_text(CONFIG.format(root=str(course), assignment=ASSIGNMENT))
    sources, exercises = {}, {}
    for name in selected:
        sources[name] = nbformat.read(ROOT / "notebooks" / name, as_version=4)
        exercises[name] = validate_source(sources[name], name)
        nbformat.write(sources[name], course / "source" / ASSIGNMENT / name)
    _nbgrader(["generate_assignment", ASSIGNMENT, "--force"], course, env)
    for name in selected:
        released = nbformat.read(course / "release" / ASSIGNMENT / name, as_version=4)
        solutions = {grade_id(c): c.source for c in sources[name].cells if is_solution(c)}
        for student in STUDENTS:
            nb = nbformat.from_dict(released)
            if student == "solution":
                for cell in nb.cells:
                    if is_solution(cell):
                        cell.source = solutions[grade_id(cell)]
            folder = course / "submitted" / student / ASSIGNMENT
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / name)
    _nbgrader(["autograde", ASSIGNMENT, "--force"], course, env)
    scores = {}
    with nbgrader_api.Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        for name in selected:
            stem = Path(name).stem
            for student in STUDENTS:
                notebook = book.find_submission_notebook(stem, ASSIGNMENT, student)
                scores[name, student] = {grade.name: (grade.score, grade.max_score) for grade in notebook.grades}
    return scores, exercises


@pytest.mark.parametrize("name", PARAMS)
def test_solution_scores_full_marks_under_nbgrader(gradebook, name: str) -> None:
    scores, exercises = gradebook[0][name, "solution"], gradebook[1][name]
    assert sorted(scores) == sorted(e.test_id for e in exercises), "one nbgrader grade per test cell"
    for exercise in exercises:
        assert scores[exercise.test_id] == (exercise.points, exercise.points), f"{name}/{exercise.test_id}: {scores}"


@pytest.mark.parametrize("name", PARAMS)
def test_stub_scores_zero_under_nbgrader(gradebook, name: str) -> None:
    scores, exercises = gradebook[0][name, "stub"], gradebook[1][name]
    assert sorted(scores) == sorted(e.test_id for e in exercises), "one nbgrader grade per test cell"
    assert all(score == 0 and max_score > 0 for score, max_score in scores.values()), f"{name}: {scores}"
