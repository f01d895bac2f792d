"""Generate the student edition from the instructors' notebooks, and tell which files are out of date."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import nbformat

from utils.grading.gradebook import write_atomically
from utils.grading.notebook import read_notebook
from utils.grading.release import release_notebook
from utils.student.layout import EDITION_DIR, LANGUAGES, SOURCE_DIR, course_names, language_folder

SPEAKER_NOTES = "notes"  # metadata.slideshow.slide_type of a cell the slides show in the speaker view only


def is_speaker_notes(cell: nbformat.NotebookNode) -> bool:
    """True for a cell meant for the speaker view of the slides, not for students."""
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type") == SPEAKER_NOTES


def student_notebook(source: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The student version of an instructors' notebook: exercises stubbed, hidden tests and speaker notes out."""
    student = release_notebook(source, name)
    student.cells = [cell for cell in student.cells if not is_speaker_notes(cell)]
    return student


def rendered(source_path: Path) -> str:
    """The text of the student edition of one source notebook, as committed."""
    return nbformat.writes(student_notebook(read_notebook(source_path), str(source_path))) + "\n"


@dataclass(frozen=True)
class EditionFile:
    """One notebook of the edition: its source and its generated student version."""

    lang: str
    name: str
    source: Path
    target: Path


def edition_files(source_dir: Path = SOURCE_DIR, edition_dir: Path = EDITION_DIR) -> list[EditionFile]:
    """Every notebook of the student edition, both languages, in course order."""
    return [EditionFile(lang, name, source_dir / language_folder(lang) / name,
                        edition_dir / language_folder(lang) / name)
            for lang in LANGUAGES for name in course_names(lang, source_dir)]


def stale(files: list[EditionFile]) -> list[EditionFile]:
    """The files whose committed student version differs from what their source gives now (or is missing)."""
    return [f for f in files
            if not f.target.is_file() or f.target.read_text(encoding="utf-8") != rendered(f.source)]


def orphans(source_dir: Path = SOURCE_DIR, edition_dir: Path = EDITION_DIR) -> list[Path]:
    """Notebooks in the edition whose source is gone."""
    expected = {f.target for f in edition_files(source_dir, edition_dir)}
    found = {p for lang in LANGUAGES for p in (edition_dir / language_folder(lang)).glob("*.ipynb")}
    return sorted(found - expected)


def build_edition(source_dir: Path = SOURCE_DIR, edition_dir: Path = EDITION_DIR) -> tuple[list[Path], list[Path]]:
    """Write every out-of-date student notebook and remove orphans; returns (written, removed)."""
    written = []
    for item in stale(edition_files(source_dir, edition_dir)):
        item.target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(item.target, rendered(item.source))
        written.append(item.target)
    removed = orphans(source_dir, edition_dir)
    for path in removed:
        path.unlink()
    return written, removed
