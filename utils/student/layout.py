"""Where the instructors' notebooks, the student edition and the student's own copies live."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIR = ROOT / "notebooks"  # the instructors' notebooks: solutions and hidden tests (the one source)
EDITION_DIR = ROOT / "student"  # the student edition, generated, committed
WORK_DIR = ROOT / "my-work"  # the student's copies, ignored by git
LANGUAGES = ("en", "zh")
NOTEBOOK_NAME = re.compile(r"^\d\d_[a-z0-9_]+\.ipynb$")


def language_folder(lang: str) -> Path:
    """The sub-folder of a language under notebooks/, student/ and my-work/ ('' for English)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return Path("" if lang == "en" else lang)


def course_names(lang: str = "en", source_dir: Path = SOURCE_DIR) -> list[str]:
    """The file names of the course's notebooks in one language, in course order."""
    folder = source_dir / language_folder(lang)
    return sorted(p.name for p in folder.glob("*.ipynb") if NOTEBOOK_NAME.match(p.name))


def resolve_name(name: str, lang: str = "en", source_dir: Path = SOURCE_DIR) -> str:
    """The course file name meant by `name`: a file name, a stem or its number ("06"); a clear error otherwise."""
    bare = Path(name).name
    names = course_names(lang, source_dir)
    matches = [n for n in names if bare in (n, Path(n).stem) or n.startswith(f"{bare}_")]
    if len(matches) != 1:
        known = ", ".join(n[:2] for n in names)
        raise ValueError(f"no course notebook called {name!r} (give its number, one of {known}, or its file name)"
                         if not matches else f"{name!r} names several notebooks: {', '.join(matches)}")
    return matches[0]
