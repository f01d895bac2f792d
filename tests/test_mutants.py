"""Mutants: each show's assert fails without its effect; the mutant files are valid and cover every show; the runner can fail.

The kernel tests run every selected mutant once per session, two kernels at a time
(LM_MUTANT_WORKERS overrides), each only as far as its target cell. The default tier (`pytest`) runs
the first mutant of every show, so each show is proven by at least one killed mutant; the slow
tier (`pytest -m slow`) runs all the others.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

from tests.mutation.runner import Outcome, run_mutants
from tests.mutation.spec import (
    Edit,
    Mutant,
    Patch,
    coverage_problems,
    covered_notebooks,
    mutant_files,
    mutant_problems,
    show_cells,
)

FILES = mutant_files()


def _cases() -> list:
    """Every mutant; the first one of each show runs in the default tier, the others in the slow tier (-m slow)."""
    cases, first_seen = [], set()
    for f in FILES:
        for m in f.mutants:
            key = (f.notebook, m.target)
            marks = [] if key not in first_seen else [pytest.mark.slow]
            first_seen.add(key)
            cases.append(pytest.param(f.notebook_path, m, id=f"{f.notebook}::{m.name}", marks=marks))
    return cases


CASES = _cases()


@pytest.fixture(scope="session")
def outcomes(request: pytest.FixtureRequest) -> dict[tuple[str, str], Outcome]:
    """Outcome of every mutant this session selected, run once, at most two at a time."""
    jobs = [
        (item.callspec.params["notebook_path"], item.callspec.params["mutant"])
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_mutant_is_killed" and hasattr(item, "callspec")
        and item.module.__name__ == __name__  # another file's test of the same name has other parameters
    ]
    results = run_mutants(jobs, workers=int(os.environ.get("LM_MUTANT_WORKERS", "2")))
    return {(o.notebook, o.mutant): o for o in results}


@pytest.mark.parametrize("notebook_path, mutant", CASES)
def test_mutant_is_killed(notebook_path: Path, mutant: Mutant, outcomes: dict) -> None:
    outcome = outcomes[(notebook_path.name, mutant.name)]
    assert outcome.killed, f"{notebook_path.name}, mutant {mutant.name!r} (removes {mutant.removes}): {outcome.reason}"


# ---- static checks: no kernel ----


@pytest.mark.parametrize("file", FILES, ids=[f.path.name for f in FILES])
def test_mutant_file_is_valid(file) -> None:
    problems = mutant_problems(file.notebook_path, file.mutants)
    if file.path.stem != "m" + Path(file.notebook).stem:
        problems.append(f"{file.path.name} should be named m{Path(file.notebook).stem}.py after its notebook")
    assert not problems, f"{file.path.name}:\n" + "\n".join(problems)


def test_one_mutant_file_per_notebook() -> None:
    notebooks = [f.notebook for f in FILES]
    assert len(notebooks) == len(set(notebooks)), f"several mutant files name the same notebook: {sorted(notebooks)}"


@pytest.mark.parametrize("notebook", covered_notebooks())
def test_every_show_of_a_covered_notebook_has_a_mutant(notebook: str) -> None:
    files = [f for f in FILES if f.notebook == notebook]
    assert files, f"{notebook} is listed in tests/mutants/COVERED but has no mutant file"
    problems = coverage_problems(files[0].notebook_path, files[0].mutants)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("notebook", covered_notebooks())
def test_coverage_check_fails_when_a_show_loses_its_mutants(notebook: str) -> None:
    files = [f for f in FILES if f.notebook == notebook]
    assert files, f"{notebook} has no mutant file"
    for cell_id, show in show_cells(files[0].notebook_path).items():
        remaining = [m for m in files[0].mutants if m.target != cell_id]
        problems = coverage_problems(files[0].notebook_path, remaining)
        assert any(cell_id in p and "has no mutant" in p for p in problems), f"dropping show {show!r}'s mutants went unnoticed"


def _cell(cell_id: str, source: str, show: str | None = None) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.id = cell_id
    if show:
        cell.metadata["show"] = show
    return cell


@pytest.fixture
def tiny_notebook(tmp_path: Path) -> Path:
    """Four cells: set-up, work, a show (y is twice x) and a later cell."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [
        _cell("setup", "x = 3"),
        _cell("work", "y = x * 2"),
        _cell("twice", "assert y == 2 * x, f'y should be twice x, got {y}'", show="twice_x"),
        _cell("later", "z = x + x"),
    ]
    path = tmp_path / "00_tiny.ipynb"
    nbformat.write(notebook, path)
    return path


def test_static_checks_catch_broken_mutants(tiny_notebook: Path) -> None:
    double = Edit("work", "x", "4")  # "x" occurs once in "y = x * 2"; "2" would too; " " occurs 4 times
    broken = [
        Mutant("a", "c", "twice", "twice", edits=[double]),
        Mutant("a", "c", "twice", "twice", edits=[double]),  # duplicate name
        Mutant("no_cell", "c", "twice", "twice", edits=[Edit("missing", "x", "y")]),
        Mutant("old_twice", "c", "twice", "twice", edits=[Edit("work", " ", "")]),
        Mutant("not_a_show", "c", "work", "twice", edits=[double]),
        Mutant("no_target", "c", "nowhere", "twice", edits=[double]),
        Mutant("after", "c", "twice", "twice", edits=[Edit("later", "x + x", "0")]),
        Mutant("skip_target", "c", "twice", "twice", edits=[double], skip=["twice"]),
        Mutant("empty_message", "c", "twice", "", patches=[Patch("work", "x = 1")]),
        Mutant("nothing", "c", "twice", "twice"),
    ]
    problems = "\n".join(mutant_problems(tiny_notebook, broken))
    for expected in [
        "'a': name used twice",
        "'no_cell': edited cell 'missing' does not exist",
        "'old_twice': `old` ' ' occurs 4 times",
        "'not_a_show': target cell 'work' is not a show cell",
        "'no_target': target cell 'nowhere' does not exist",
        "'after': edited cell 'later' comes after the target",
        "'skip_target': the target cell cannot be skipped",
        "'empty_message': `message` must not be empty",
        "'nothing': no edit and no patch",
    ]:
        assert expected in problems, f"static check missed: {expected}\n{problems}"
    assert mutant_problems(tiny_notebook, broken[:1]) == []
    assert coverage_problems(tiny_notebook, []) == ["show 'twice_x' (cell twice) of 00_tiny.ipynb has no mutant"]
    assert coverage_problems(tiny_notebook, broken[:1]) == []


def test_the_runner_reports_why_a_mutant_was_not_killed(tiny_notebook: Path) -> None:
    triple = Edit("work", "x * 2", "x * 3")
    subclass = "class Failed(AssertionError):\n    pass\n"
    cases = {
        "killed": (Mutant("killed", "c", "twice", r"twice x, got 9", edits=[triple]), True, "killed at cell twice"),
        "subclass": (  # the show's assert raises a subclass of AssertionError: still killed
            Mutant("subclass", "c", "twice", "twice", patches=[Patch("setup", subclass)],
                   edits=[Edit("twice", "assert y == 2 * x, f'y should be twice x, got {y}'",
                               "if y != 2 * x: raise Failed('y should be twice x')"), triple]),
            True, "killed at cell twice by Failed"),
        "survives": (Mutant("survives", "c", "twice", "twice", edits=[Edit("work", "x * 2", "x + x")]), False,
                     "survived: the target cell twice ran without an AssertionError"),
        "wrong_exception": (Mutant("wrong_exception", "c", "twice", "twice", skip=["work"]
                                   , patches=[Patch("twice", "pass")]), False,
                            "the target cell twice raised NameError, not an AssertionError"),
        "earlier": (Mutant("earlier", "c", "twice", "twice", edits=[Edit("work", "x * 2", "x / 0")]), False,
                    "failed earlier, at cell work with ZeroDivisionError"),
        "wrong_message": (Mutant("wrong_message", "c", "twice", "thrice", edits=[triple]), False,
                          "whose message does not match 'thrice'"),
        "bad_patch": (Mutant("bad_patch", "c", "twice", "twice", patches=[Patch("work", "assert False, 'twice'")]),
                      False, "failed earlier, at patch 1 before cell work with AssertionError"),
        "invalid": (Mutant("invalid", "c", "twice", "twice", edits=[Edit("work", "no such text", "")]), False,
                    "invalid mutant: edit of cell 'work'"),
        "skipped_target": (Mutant("skipped_target", "c", "twice", "twice", edits=[triple], skip=["twice"]), False,
                           "invalid mutant: target cell 'twice' is not a code cell that runs"),
    }
    results = run_mutants([(tiny_notebook, mutant) for mutant, _, _ in cases.values()], workers=2)
    for (name, (_, killed, reason)), outcome in zip(cases.items(), results):
        assert outcome.mutant == name
        assert outcome.killed == killed and reason in outcome.reason, f"{name}: {outcome}"
