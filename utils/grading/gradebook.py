"""The grade book (CSV, one row per student, notebook and exercise) and per-student feedback, written atomically."""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path


@dataclass(frozen=True)
class Row:
    """One graded exercise of one student."""

    student: str
    notebook: str
    grade_id: str
    points: float
    max_points: float
    feedback: str


COLUMNS = [f.name for f in fields(Row)]


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temp file next to `path`, then os.replace it (readers never see half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def read_gradebook(path: Path) -> list[Row]:
    """Rows of an existing grade book ([] when there is none)."""
    if not path.is_file():
        return []
    with open(path, encoding="utf-8", newline="") as file:
        reader = csv.DictReader(file)
        if reader.fieldnames != COLUMNS:
            raise ValueError(f"{path}: not a grade book (columns {reader.fieldnames}, expected {COLUMNS})")
        return [Row(r["student"], r["notebook"], r["grade_id"], float(r["points"]), float(r["max_points"]),
                    r["feedback"]) for r in reader]


def write_gradebook(path: Path, rows: list[Row]) -> None:
    """Write the grade book CSV atomically, sorted by student, notebook and exercise."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in sorted(rows, key=lambda r: (r.student, r.notebook, r.grade_id)):
        writer.writerow({**asdict(row), "points": f"{row.points:g}", "max_points": f"{row.max_points:g}"})
    write_atomically(path, buffer.getvalue())


def merge_rows(old: list[Row], new: list[Row]) -> list[Row]:
    """Old rows, with every (student, notebook) graded again replaced by its new rows."""
    regraded = {(row.student, row.notebook) for row in new}
    return [row for row in old if (row.student, row.notebook) not in regraded] + new


def safe_file_name(name: str) -> str:
    """A file name made from a student's folder name (letters, digits, '.', '_', '-')."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")
    return cleaned or "student"


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def feedback_markdown(student: str, rows: list[Row]) -> str:
    """A student's feedback: per notebook a table of exercises, points and reasons, then the total."""
    lines = [f"# Feedback for {student}", ""]
    for notebook in sorted({row.notebook for row in rows}):
        mine = [row for row in rows if row.notebook == notebook]
        got, total = sum(r.points for r in mine), sum(r.max_points for r in mine)
        lines += [f"## {notebook}: {got:g} / {total:g} points", "", "| Exercise | Points | Feedback |",
                  "|---|---|---|"]
        lines += [f"| {r.grade_id} | {r.points:g} / {r.max_points:g} | {_cell(r.feedback)} |" for r in mine]
        lines.append("")
    got, total = sum(r.points for r in rows), sum(r.max_points for r in rows)
    lines.append(f"**Total: {got:g} / {total:g} points**")
    return "\n".join(lines) + "\n"
