"""Where the English originals, their translation files and the built Chinese files live."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

LANG = "zh"
ROOT = Path(__file__).resolve().parents[2]
LESSON_FILES = ("README.md", "instructors_guide.md")


@dataclass(frozen=True)
class Source:
    """One English original with its translation file and its built translation."""

    kind: str  # "notebook" or "lesson"
    english: Path
    catalog: Path
    built: Path

    @property
    def name(self) -> str:
        """A short name: the file name of the English original."""
        return self.english.name


def readable_by_all(path: str | Path) -> None:
    """Give a file written by mkstemp (mode 0600) the mode an ordinary file gets (0666 less the umask).

    Course files are read by other users too: the grader's sandboxed helper runs as another uid.
    """
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def relative(path: Path) -> str:
    """A path as written in built files: relative to the course root when inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def notebook_source(english: Path, root: Path = ROOT) -> Source:
    """The Source of one English notebook."""
    return Source("notebook", english, root / "translations" / LANG / "notebooks" / f"{english.stem}.po",
                  root / "notebooks" / LANG / english.name)


def lesson_source(english: Path, root: Path = ROOT) -> Source:
    """The Source of one English lesson file."""
    return Source("lesson", english, root / "translations" / LANG / "lessons" / f"{english.stem}.po",
                  root / "lessons" / LANG / english.name)


def sources(root: Path = ROOT) -> list[Source]:
    """Every English original the Chinese edition translates: the numbered notebooks and the lessons."""
    notebooks = [notebook_source(p, root) for p in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
    lesson_paths = sorted((root / "lessons").glob("[0-9][0-9]_*.md"))
    lesson_paths += [root / "lessons" / name for name in LESSON_FILES if (root / "lessons" / name).exists()]
    return notebooks + [lesson_source(p, root) for p in lesson_paths]


def find_source(name: str, root: Path = ROOT) -> Source:
    """The Source whose English file name or stem is `name`, with a clear error otherwise."""
    matches = [s for s in sources(root) if name in (s.english.name, s.english.stem, str(s.english))]
    if not matches:
        known = ", ".join(s.english.name for s in sources(root))
        raise ValueError(f"no English notebook or lesson called {name!r}; known: {known}")
    if len(matches) > 1:
        raise ValueError(f"{name!r} names both {matches[0].english} and {matches[1].english}: give the file name")
    return matches[0]
