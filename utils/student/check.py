"""Grade a student's copy of a notebook against the instructors' hidden tests, without showing them."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from utils.grading.gradebook import Row
from utils.student.layout import SOURCE_DIR, language_folder, resolve_name

STUDENT = "me"


def copy_language(path: Path) -> str:
    """The language of a student's copy: 'zh' when it lies in a folder named zh, else 'en'."""
    return "zh" if Path(path).resolve().parent.name == "zh" else "en"


def source_of(copy: Path, source_dir: Path = SOURCE_DIR) -> Path:
    """The instructors' notebook a student's copy was made from (same name and language)."""
    lang = copy_language(copy)
    name = resolve_name(Path(copy).name, lang, source_dir)
    return source_dir / language_folder(lang) / name


def exercise_numbers(source: Path) -> dict[str, int | None]:
    """Test cell id -> exercise number for the exercises of a source notebook."""
    from utils.grading.grade import load_sources

    (loaded,) = load_sources([source])
    return {e.test_id: e.number for e in loaded.exercises}


def check_copy(copy: Path, timeout_s: float = 300.0, sandbox: str = "auto", fast: bool = True,
               source_dir: Path = SOURCE_DIR) -> list[Row]:
    """Grade `copy` with the course's grader as an instructor would (sandboxed where bubblewrap works)."""
    from utils.grading.grade import grade, load_sources

    copy = Path(copy)
    if not copy.is_file():
        raise FileNotFoundError(f"{copy}: no such notebook (give the path of your copy, e.g. my-work/06_...ipynb)")
    source = source_of(copy, source_dir)
    if sandbox == "auto":  # the student's own code on their own machine: the grader's "auto" refuses without bwrap
        from utils.grading.bwrap import bwrap_works

        sandbox = "required" if bwrap_works()[0] else "off"
    previous = os.environ.get("LM_FAST")
    os.environ["LM_FAST"] = "1" if fast else "0"
    try:
        with tempfile.TemporaryDirectory(prefix="lm-check-") as tmp:
            submissions = Path(tmp) / "submissions"
            (submissions / STUDENT).mkdir(parents=True)
            shutil.copy2(copy, submissions / STUDENT / source.name)
            return grade(load_sources([source]), submissions, Path(tmp) / "grades", timeout_s=timeout_s,
                         sandbox=sandbox, source_dirs=[source.parent])
    finally:
        if previous is None:
            os.environ.pop("LM_FAST", None)
        else:
            os.environ["LM_FAST"] = previous
