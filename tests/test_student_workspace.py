"""The student's copies (my-work/): filled from the edition, never overwritten once edited, checked by one command."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from utils.student.__main__ import main
from utils.student.check import check_copy, source_of
from utils.student.layout import EDITION_DIR, SOURCE_DIR, resolve_name
from utils.student.workspace import Workspace, fingerprint

NAME = "01_autoregression.ipynb"


@pytest.fixture
def edition(tmp_path: Path) -> Path:
    """A copy of two notebooks of the English edition and one of the Chinese, to change at will."""
    folder = tmp_path / "student"
    (folder / "zh").mkdir(parents=True)
    for name in (NAME, "02_ngram_models.ipynb"):
        shutil.copy2(EDITION_DIR / name, folder / name)
    shutil.copy2(EDITION_DIR / "zh" / NAME, folder / "zh" / NAME)
    return folder


def _edit(path: Path, text: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_markdown_cell(text))
    nbformat.write(notebook, path)


def _run_outputs(path: Path) -> None:
    """What JupyterLab's autosave does after Run All: outputs and counts, the sources unchanged."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", text="ran\n")]
            cell.execution_count = 1
    nbformat.write(notebook, path)


def test_first_open_copies_the_language_asked_for(edition, tmp_path):
    work = tmp_path / "my-work"
    assert Workspace(edition, work).sync("en") == []
    assert sorted(p.name for p in work.glob("*.ipynb")) == [NAME, "02_ngram_models.ipynb"]
    assert not (work / "zh").exists()
    Workspace(edition, work).sync("zh")
    assert (work / "zh" / NAME).read_text(encoding="utf-8") == (edition / "zh" / NAME).read_text(encoding="utf-8")


def test_an_edited_copy_is_never_overwritten_and_the_student_is_told(edition, tmp_path):
    work = tmp_path / "my-work"
    space = Workspace(edition, work)
    space.sync("en")
    _edit(work / NAME, "my answer")
    mine = (work / NAME).read_text(encoding="utf-8")
    assert space.sync("en") == [], "nothing changed in the course: nothing to say"
    _edit(edition / NAME, "the course's correction")  # a `git pull` brought a new version
    messages = space.sync("en")
    assert (work / NAME).read_text(encoding="utf-8") == mine
    assert len(messages) == 1 and NAME in messages[0] and "newer version" in messages[0]
    assert space.sync("en") == messages, "the notice stays until the student acts on it"
    kept = space.update(NAME, "en")
    assert kept is not None and kept.read_text(encoding="utf-8") == mine
    assert "the course's correction" in (work / NAME).read_text(encoding="utf-8")
    assert space.sync("en") == []


def test_an_unedited_copy_follows_the_course(edition, tmp_path):
    work = tmp_path / "my-work"
    space = Workspace(edition, work)
    space.sync("en")
    _run_outputs(work / NAME)  # run, not edited: same sources
    _edit(edition / NAME, "the course's correction")
    messages = space.sync("en")
    assert len(messages) == 1 and "updated" in messages[0]
    assert "the course's correction" in (work / NAME).read_text(encoding="utf-8")
    assert not list(work.glob("*.mine-*.ipynb"))


def test_fingerprint_ignores_outputs_and_sees_edits(edition, tmp_path):
    path = tmp_path / "copy.ipynb"
    shutil.copy2(edition / NAME, path)
    before = fingerprint(nbformat.read(path, as_version=4))
    _run_outputs(path)
    assert fingerprint(nbformat.read(path, as_version=4)) == before
    _edit(path, "x")
    assert fingerprint(nbformat.read(path, as_version=4)) != before


def test_names_resolve_from_a_number_a_stem_or_a_path():
    assert resolve_name("01") == resolve_name("01_autoregression") == resolve_name("my-work/" + NAME) == NAME
    with pytest.raises(ValueError, match="no course notebook called '99'"):
        resolve_name("99")
    assert source_of(Path("my-work/zh") / NAME) == SOURCE_DIR / "zh" / NAME


def test_the_command_line_refuses_a_missing_copy_clearly(capsys):
    assert main(["check", "my-work/no_such_notebook.ipynb"]) == 2
    assert "no such notebook" in capsys.readouterr().err


def test_check_grades_a_copy_without_showing_the_hidden_tests(tmp_path, capsys):
    """Exercise 1 of 01 solved in the student's copy: it passes, the stubs score 0, no hidden test is printed."""
    source = nbformat.read(SOURCE_DIR / NAME, as_version=4)
    solution = next(c for c in source.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") ==
                    "ex1_cross_entropy")
    copy = nbformat.read(EDITION_DIR / NAME, as_version=4)
    for cell in copy.cells:
        if cell.id == solution.id:
            cell.source = "\n".join(line for line in solution.source.splitlines()
                                    if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
    (tmp_path / "my-work").mkdir()
    path = tmp_path / "my-work" / NAME
    nbformat.write(copy, path)
    rows = check_copy(path, timeout_s=300, sandbox="off")  # the sandbox is the grader's, tested there
    got = {row.grade_id: row.points for row in rows}
    assert got["ex1_cross_entropy_test"] == 2 and sum(got.values()) == 2, rows
    assert all("NotImplementedError" in r.feedback for r in rows if r.grade_id != "ex1_cross_entropy_test")
    hidden = "_big_logits, _big_targets"
    assert hidden in (SOURCE_DIR / NAME).read_text(encoding="utf-8")
    assert not any(hidden in row.feedback for row in rows)
