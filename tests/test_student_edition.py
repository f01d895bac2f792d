"""The student edition (student/) is what its sources give now, and holds no answer.

The instructors' notebooks (notebooks/, notebooks/zh/) are the one source; `python -m utils.student build`
regenerates student/ from them (solutions stubbed and hidden tests removed by utils.grading.release, speaker
notes left out). These tests fail when a source changed and student/ was not rebuilt, as tests/test_i18n_sync.py
does for the Chinese edition.
"""

from __future__ import annotations

import subprocess

import nbformat
import pytest

from utils.grading.notebook import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    hidden_blocks,
    is_test,
    solution_blocks,
)
from utils.student.edition import build_edition, edition_files, is_speaker_notes, orphans, rendered, stale
from utils.student.layout import EDITION_DIR, ROOT, WORK_DIR

FILES = edition_files()
IDS = [f"{f.lang}/{f.name}" for f in FILES]


def _blocks_text(source: str, blocks: list[tuple[int, int]]) -> list[str]:
    """The lines strictly inside each block, joined (markers left out)."""
    lines = source.splitlines()
    return ["\n".join(lines[begin + 1 : end]).strip() for begin, end in blocks]


def test_both_languages_and_every_notebook_have_a_student_version():
    assert {f.lang for f in FILES} == {"en", "zh"}
    assert len(FILES) == len(list((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))) * 2


@pytest.mark.parametrize("item", FILES, ids=IDS)
def test_student_version_is_current(item):
    assert item.target.is_file(), f"{item.target} is missing: run `python -m utils.student build`"
    assert item.target.read_text(encoding="utf-8") == rendered(item.source), (
        f"{item.target.relative_to(ROOT)} differs from what {item.source.relative_to(ROOT)} gives "
        "(the notebook changed, or student/ was edited by hand): run `python -m utils.student build`")


def test_no_orphan_student_notebooks():
    assert not orphans(), f"student notebooks without a source: {orphans()} (run `python -m utils.student build`)"


@pytest.mark.parametrize("item", FILES, ids=IDS)
def test_no_solution_hidden_test_or_speaker_notes(item):
    source = nbformat.read(item.source, as_version=4)
    student = nbformat.read(item.target, as_version=4)
    text = "\n".join(cell.source for cell in student.cells)
    for marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
        assert marker not in text, f"{item.target.name} contains {marker!r}"
    secrets = [body for cell in source.cells
               for body in _blocks_text(cell.source, solution_blocks(cell.source) + hidden_blocks(cell.source))
               if body]
    assert secrets, f"{item.source.name}: no solution found to look for (is it still a graded notebook?)"
    leaked = [body[:80] for body in secrets if body in text]
    assert not leaked, f"{item.target.name} shows solution or hidden-test code: {leaked}"
    assert not [c.id for c in student.cells if is_speaker_notes(c)], "speaker-notes cells reached the students"
    assert all(not c.get("outputs") for c in student.cells if c.cell_type == "code"), "outputs in the edition"


@pytest.mark.parametrize("item", FILES, ids=IDS)
def test_every_exercise_keeps_its_visible_checks(item):
    source = [c for c in nbformat.read(item.source, as_version=4).cells if is_test(c)]
    student = {c.id: c for c in nbformat.read(item.target, as_version=4).cells if is_test(c)}
    assert [c.id for c in source] == list(student), "test cells were lost or reordered"
    for cell in source:
        lines = cell.source.splitlines()
        hidden = {i for begin, end in hidden_blocks(cell.source) for i in range(begin, end + 1)}
        visible = [line for i, line in enumerate(lines) if i not in hidden and line.strip()]
        assert all(line in student[cell.id].source for line in visible), f"{cell.id}: visible checks lost"


def test_the_sync_check_can_fail(tmp_path):
    """A changed source makes its student version stale; a rebuild makes it current and drops orphans."""
    sources, edition = tmp_path / "notebooks", tmp_path / "student"
    (sources / "zh").mkdir(parents=True)
    original = FILES[0].source
    (sources / original.name).write_text(original.read_text(encoding="utf-8"), encoding="utf-8")
    assert build_edition(sources, edition) == ([edition / original.name], [])
    assert not stale(edition_files(sources, edition))
    notebook = nbformat.read(sources / original.name, as_version=4)
    notebook.cells.insert(1, nbformat.v4.new_markdown_cell("Speaker notes: new", metadata={
        "slideshow": {"slide_type": "notes"}}))
    notebook.cells.insert(1, nbformat.v4.new_markdown_cell("A new paragraph for students."))
    nbformat.write(notebook, sources / original.name)
    assert [f.name for f in stale(edition_files(sources, edition))] == [original.name]
    (edition / "99_gone.ipynb").write_text("{}", encoding="utf-8")
    written, removed = build_edition(sources, edition)
    assert written == [edition / original.name] and removed == [edition / "99_gone.ipynb"]
    rebuilt = (edition / original.name).read_text(encoding="utf-8")
    assert "A new paragraph for students." in rebuilt and "Speaker notes: new" not in rebuilt


def test_git_ignores_the_students_copies_and_tracks_the_edition():
    ignored = subprocess.run(["git", "check-ignore", "-q", str(WORK_DIR / "01_autoregression.ipynb")], cwd=ROOT)
    assert ignored.returncode == 0, "my-work/ must be ignored by git (.gitignore), or a student's work dirties the clone"
    tracked = subprocess.run(["git", "check-ignore", "-q", str(EDITION_DIR / "01_autoregression.ipynb")], cwd=ROOT)
    assert tracked.returncode == 1, "student/ must not be ignored: it is the committed edition"
