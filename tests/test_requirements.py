"""The student's set-up (requirements.txt) is light and complete; the tests' set-up adds the tools on top.

Complete: every third-party module that `utils/` or a notebook's code imports comes from a distribution that
requirements.txt names, or that one of those requires. Light: none of the test and grading tools is in it (so a
student's JupyterLab has no nbgrader menu). The install time and size are measured, never asserted
(benchmarks/README.md).
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

import nbformat
import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
STUDENT = ROOT / "requirements.txt"
TESTS = ROOT / "requirements-test.txt"
TEST_ONLY = {"pytest", "nbval", "pytest-xdist", "nltk", "playwright", "nbgrader"}


def _canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_lines(path: Path) -> list[str]:
    """The requirement lines of a requirements file and of the files it includes (`-r`): comments, blank lines and
    other pip options left out."""
    lines = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    included = [line.split(None, 1)[1] for line in lines if line.startswith("-r ")]
    own = [line for line in lines if line and not line.startswith("-")]
    return own + [line for name in included for line in requirement_lines(path.parent / name)]


def named(path: Path) -> set[str]:
    """The distributions a requirements file names."""
    return {_canonical(Requirement(line).name) for line in requirement_lines(path)}


def closure(names: set[str]) -> set[str]:
    """`names` and every distribution they require, as installed here (extras left out)."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(_canonical(requirement.name))
    return seen


def imported_modules(source: str) -> set[str]:
    """Top-level names of the modules a piece of Python source imports (relative imports left out)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics in a notebook cell
        tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def course_imports() -> dict[str, str]:
    """Each third-party module imported by utils/ or a notebook, with one place that imports it."""
    places: dict[str, str] = {}
    for path in sorted((ROOT / "utils").rglob("*.py")):
        for module in imported_modules(path.read_text(encoding="utf-8")):
            places.setdefault(module, str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                for module in imported_modules(cell.source):
                    places.setdefault(module, str(path.relative_to(ROOT)))
    own = {"utils", "__future__"}
    return {m: p for m, p in places.items() if m not in own and m not in sys.stdlib_module_names}


def test_the_student_set_up_has_no_test_or_grading_tool():
    assert not named(STUDENT) & TEST_ONLY, (
        f"requirements.txt installs {sorted(named(STUDENT) & TEST_ONLY)} for every student: move them to "
        "requirements-test.txt")


def test_the_test_set_up_is_the_student_set_up_plus_the_tools():
    lines = [line.split("#", 1)[0].strip() for line in TESTS.read_text(encoding="utf-8").splitlines()]
    assert "-r requirements.txt" in lines, "requirements-test.txt must include the student's set-up"
    assert TEST_ONLY <= named(TESTS), f"requirements-test.txt lacks {sorted(TEST_ONLY - named(TESTS))}"


def test_every_module_the_course_imports_comes_with_the_student_set_up():
    provided = closure(named(STUDENT))
    by_module = metadata.packages_distributions()
    missing = {}
    for module, place in course_imports().items():
        distributions = {_canonical(d) for d in by_module.get(module, [])}
        if not distributions & provided:
            missing[module] = (place, sorted(distributions) or "not installed here")
    assert not missing, (f"imported by the course but not installed by requirements.txt (module: where, "
                         f"distribution): {missing}")


def test_the_completeness_check_can_fail():
    assert imported_modules("import nltk.lm\nfrom pytest import raises\n%matplotlib inline") == {"nltk", "pytest"}
    assert "nltk" not in closure({"numpy"})


def test_ci_and_the_readme_install_the_test_set_up():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"pip install .*-r requirements-test\.txt", ci), ".ci/run must install requirements-test.txt"
    for readme in ("README.md", "README.zh.md"):
        assert "requirements-test.txt" in (ROOT / readme).read_text(encoding="utf-8"), (
            f"{readme} must say how to install the tests' set-up")


@pytest.mark.parametrize("path", [STUDENT, TESTS], ids=["requirements.txt", "requirements-test.txt"])
def test_every_line_is_a_valid_requirement(path):
    for line in requirement_lines(path):
        Requirement(line)  # raises InvalidRequirement with the line
