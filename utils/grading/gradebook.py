"""The grade books and per-student feedback, written atomically.

grades.csv: one row per student, notebook and exercise (the feedback in the student's language);
students.csv: one row per student (total, one column per notebook, max points) for a learning-management system.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from utils.i18n.text import in_language, tr


@dataclass(frozen=True)
class Row:
    """One graded exercise of one student."""

    student: str
    notebook: str
    grade_id: str
    points: float
    max_points: float
    feedback: str
    lang: str = "en"  # the language of the feedback (the student's edition)


COLUMNS = [f.name for f in fields(Row)]
LEGACY_COLUMNS = COLUMNS[:-1]  # grade books written before the lang column
TOTALS_FIRST, TOTALS_LAST = ["student", "total"], ["max_points"]


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
        if reader.fieldnames not in (COLUMNS, LEGACY_COLUMNS):
            raise ValueError(f"{path}: not a grade book (columns {reader.fieldnames}, expected {COLUMNS})")
        return [Row(r["student"], r["notebook"], r["grade_id"], float(r["points"]), float(r["max_points"]),
                    r["feedback"], r.get("lang") or "en") for r in reader]


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
    """A student's feedback, in their language: per notebook a table of exercises, points and reasons, then the total."""
    langs = [row.lang for row in rows]
    with in_language(max(set(langs), key=langs.count) if langs else "en"):
        lines = [tr("# Feedback for {student}", student=student), ""]
        for notebook in sorted({row.notebook for row in rows}):
            mine = [row for row in rows if row.notebook == notebook]
            got, total = sum(r.points for r in mine), sum(r.max_points for r in mine)
            lines += [tr("## {notebook}: {got} / {total} points", notebook=notebook, got=f"{got:g}",
                         total=f"{total:g}"), "", tr("| Exercise | Points | Feedback |"), "|---|---|---|"]
            lines += [f"| {r.grade_id} | {r.points:g} / {r.max_points:g} | {_cell(r.feedback)} |" for r in mine]
            lines.append("")
        got, total = sum(r.points for r in rows), sum(r.max_points for r in rows)
        lines.append(tr("**Total: {got} / {total} points**", got=f"{got:g}", total=f"{total:g}"))
    return "\n".join(lines) + "\n"


def student_totals(rows: list[Row]) -> tuple[list[str], list[dict[str, str]]]:
    """The columns and rows of students.csv: student, total, one column per notebook, max points (the class's)."""
    notebooks = sorted({row.notebook for row in rows})
    notebook_max: dict[str, float] = {}
    for notebook in notebooks:  # a notebook's max points: its exercises' max points, whoever was graded
        exercises = {row.grade_id: row.max_points for row in rows if row.notebook == notebook}
        notebook_max[notebook] = sum(exercises.values())
    table = []
    for student in sorted({row.student for row in rows}):
        mine = [row for row in rows if row.student == student]
        entry = {"student": student, "total": f"{sum(r.points for r in mine):g}",
                 "max_points": f"{sum(notebook_max.values()):g}"}
        for notebook in notebooks:
            graded = [r.points for r in mine if r.notebook == notebook]
            entry[notebook] = f"{sum(graded):g}" if graded else ""
        table.append(entry)
    return TOTALS_FIRST + notebooks + TOTALS_LAST, table


def write_student_totals(path: Path, rows: list[Row]) -> None:
    """Write students.csv (one row per student, for Canvas or Moodle) atomically."""
    columns, table = student_totals(rows)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    write_atomically(path, buffer.getvalue())
