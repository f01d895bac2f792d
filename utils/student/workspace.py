"""The student's own copies (my-work/, ignored by git): filled from the edition, never overwritten once edited.

my-work/.course-versions.json records, for each copy, the fingerprint of the edition's version it was copied
from. When the course changes a notebook (a `git pull` updates student/), a copy the student has not edited
is replaced by the new version; an edited copy is kept and the student is told (`update` swaps it for the new
version and keeps theirs beside it under another name).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from utils.grading.gradebook import write_atomically
from utils.i18n.text import tr
from utils.student.layout import EDITION_DIR, WORK_DIR, course_names, language_folder

VERSIONS_FILE = ".course-versions.json"


def fingerprint(notebook: nbformat.NotebookNode) -> str:
    """A hash of what a student writes: the cells' types and sources (outputs and metadata left out)."""
    cells = [[cell.cell_type, cell.source] for cell in notebook.cells]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode("utf-8")).hexdigest()


def file_fingerprint(path: Path) -> str | None:
    """The fingerprint of a notebook file, or None when it cannot be read as a notebook."""
    try:
        return fingerprint(nbformat.read(path, as_version=4))
    except (OSError, ValueError, KeyError, AttributeError):
        return None


@dataclass
class Workspace:
    """The student's folder of copies and the record of which edition version each came from."""

    edition_dir: Path = EDITION_DIR
    work_dir: Path = WORK_DIR

    @property
    def versions_path(self) -> Path:
        """The JSON record of the copied versions."""
        return self.work_dir / VERSIONS_FILE

    def versions(self) -> dict[str, str]:
        """Relative path of each copy -> fingerprint of the edition version it was copied from."""
        if not self.versions_path.is_file():
            return {}
        try:
            data = json.loads(self.versions_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}

    def _record(self, relative: str, print_: str) -> None:
        versions = self.versions()
        versions[relative] = print_
        write_atomically(self.versions_path, json.dumps(versions, indent=1, sort_keys=True) + "\n")

    def _copy(self, edition: Path, copy: Path, relative: str) -> None:
        text = edition.read_text(encoding="utf-8")
        write_atomically(copy, text)
        self._record(relative, fingerprint(nbformat.reads(text, as_version=4)))

    def sync(self, lang: str = "en") -> list[str]:
        """Copy the notebooks of `lang` that are missing, update unedited ones; return one message per change."""
        folder = language_folder(lang)
        if not (self.edition_dir / folder).is_dir():
            raise FileNotFoundError(f"{self.edition_dir / folder}: the student edition is missing "
                                    "(run `python -m utils.student build` in the course folder)")
        messages, versions = [], self.versions()
        for name in course_names(lang, self.edition_dir):
            relative = (folder / name).as_posix()
            edition, copy = self.edition_dir / folder / name, self.work_dir / folder / name
            current = file_fingerprint(edition)
            if not copy.exists():
                self._copy(edition, copy, relative)
                continue
            mine, copied_from = file_fingerprint(copy), versions.get(relative)
            if copied_from == current or mine == current:
                if copied_from != current:
                    self._record(relative, current)
                continue
            if copied_from is not None and mine == copied_from:  # not edited since it was copied
                self._copy(edition, copy, relative)
                messages.append(tr("updated {name}: the course has a newer version and you had not edited yours",
                                   name=relative))
            else:
                command = f"python -m utils.student update {name[:2]}" + ("" if lang == "en" else f" --lang {lang}")
                messages.append(tr("the course has a newer version of {name}; your copy is kept. `{command}` puts "
                                   "the new one in its place and keeps yours beside it", name=relative,
                                   command=command))
        return messages

    def update(self, name: str, lang: str = "en") -> Path | None:
        """Replace the copy of `name` by the edition's version; an edited copy is kept under a dated name first."""
        folder = language_folder(lang)
        relative = (folder / name).as_posix()
        edition, copy = self.edition_dir / folder / name, self.work_dir / folder / name
        kept = None
        if copy.exists() and file_fingerprint(copy) != file_fingerprint(edition):
            kept = copy.with_name(f"{copy.stem}.mine-{time.strftime('%Y%m%d-%H%M%S')}.ipynb")
            copy.rename(kept)
        self._copy(edition, copy, relative)
        return kept
