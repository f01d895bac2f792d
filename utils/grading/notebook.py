"""nbgrader metadata (schema v3) and markers: read them, list the exercises, validate a source notebook."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from utils.grading.deny import DENY_LINE, REASON_LINE, denied_paths, deny_problems, deny_reason

BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"
BEGIN_HIDDEN = "### BEGIN HIDDEN TESTS"
END_HIDDEN = "### END HIDDEN TESTS"
GRADE_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]+$")
# "### Exercise 2 (3 points): title" in the English notebooks, "### 练习 2（3 分）：标题" in the Chinese ones.
EXERCISE_HEADING = re.compile(
    r"^#+\s*(?:Exercise\s+(?P<en>\d+)\s*\((?P<en_points>\d+(?:\.\d+)?)\s+points?\)"
    r"|练习\s*(?P<zh>\d+)\s*[（(]\s*(?P<zh_points>\d+(?:\.\d+)?)\s*分\s*[）)])"
    r"(?:[ \t]*[:：][ \t]*(?P<title>[^\n]*))?", re.MULTILINE)


def exercise_heading(markdown: str) -> tuple[int, float] | None:
    """(number, points) of the first exercise heading in a markdown cell, in either language."""
    match = EXERCISE_HEADING.search(markdown)
    if match is None:
        return None
    if match.group("en") is not None:
        return int(match.group("en")), float(match.group("en_points"))
    return int(match.group("zh")), float(match.group("zh_points"))


def exercise_title(markdown: str) -> str | None:
    """The title after the points in the first exercise heading ('softmax with temperature'), or None."""
    match = EXERCISE_HEADING.search(markdown)
    title = (match.group("title") or "").strip() if match else ""
    return title or None


class SourceError(ValueError):
    """A source notebook breaks the exercise convention; the message says where and how to fix it."""


@dataclass
class Exercise:
    """One graded exercise: its solution cells and the test cell that carries the points."""

    test_id: str
    points: float
    test_source: str
    solution_ids: list[str] = field(default_factory=list)
    number: int | None = None
    denied: list[str] = field(default_factory=list)
    title: str | None = field(default=None, compare=False)  # from the heading (differs between the editions)
    deny_reason: str | None = None  # from `# deny-reason:`: what the exercise asks the student to write
    parts: list[tuple[str, float]] = field(default_factory=list)  # `with part(name, points)` blocks, in order


def nbgrader_meta(cell: Any) -> dict:
    """The cell's nbgrader metadata, or {} when it has none."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def grade_id(cell: Any) -> str | None:
    """The cell's nbgrader grade_id, or None."""
    return nbgrader_meta(cell).get("grade_id")


def is_solution(cell: Any) -> bool:
    """True for a cell the student writes (nbgrader `solution: true`)."""
    return bool(nbgrader_meta(cell).get("solution", False))


def is_test(cell: Any) -> bool:
    """True for an autograded test cell (nbgrader `grade: true`, `solution: false`, a code cell)."""
    meta = nbgrader_meta(cell)
    return bool(meta.get("grade", False)) and not meta.get("solution", False) and cell.get("cell_type") == "code"


def read_notebook(path: str | Path) -> nbformat.NotebookNode:
    """Read a notebook as nbformat v4; SourceError when it is missing or not a notebook."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such notebook")
    try:
        return nbformat.read(path, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError, UnicodeDecodeError) as err:
        raise SourceError(f"{path}: not a valid notebook (invalid JSON: {err})") from err
    except Exception as err:  # nbformat raises several types for malformed structure
        raise SourceError(f"{path}: not a valid notebook ({type(err).__name__}: {err})") from err


def _marker_lines(source: str, begin: str, end: str) -> list[tuple[int, int]]:
    """Pairs (begin line, end line) of a marker block; ValueError when unbalanced or nested."""
    pairs, start = [], None
    for number, line in enumerate(source.splitlines()):
        text = line.strip()
        if text == begin:
            if start is not None:
                raise ValueError(f"nested '{begin}' on line {number + 1}")
            start = number
        elif text == end:
            if start is None:
                raise ValueError(f"'{end}' on line {number + 1} without '{begin}'")
            pairs.append((start, number))
            start = None
    if start is not None:
        raise ValueError(f"'{begin}' on line {start + 1} is never closed by '{end}'")
    return pairs


def solution_blocks(source: str) -> list[tuple[int, int]]:
    """Line ranges (begin, end) of the solution blocks in a cell's source."""
    return _marker_lines(source, BEGIN_SOLUTION, END_SOLUTION)


def hidden_blocks(source: str) -> list[tuple[int, int]]:
    """Line ranges (begin, end) of the hidden-test blocks in a cell's source."""
    return _marker_lines(source, BEGIN_HIDDEN, END_HIDDEN)


def _deny_line_numbers(source: str) -> list[int]:
    """0-based line numbers of a cell's `# deny:` and `# deny-reason:` lines."""
    return [number for number, line in enumerate(source.splitlines())
            if DENY_LINE.match(line) or REASON_LINE.match(line)]


def _part_calls(source: str) -> list[ast.Call]:
    """The `part(...)` calls of a cell (a plain name or an attribute named `part`)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Name) and node.func.id == "part")
        or (isinstance(node.func, ast.Attribute) and node.func.attr == "part"))]


def _literal_part(call: ast.Call) -> tuple[str, float] | None:
    """(name, points) of `part("name", points)` with literal arguments, else None."""
    if len(call.args) != 2 or call.keywords:
        return None
    name, points = call.args
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str) and name.value.strip()):
        return None
    if not (isinstance(points, ast.Constant) and isinstance(points.value, (int, float))
            and not isinstance(points.value, bool) and points.value > 0):
        return None
    return name.value, float(points.value)


def declared_parts(test_source: str) -> list[tuple[str, float]]:
    """The parts a test cell declares, `with part("name", points):`, in source order (see utils.grading.parts)."""
    found = [_literal_part(call) for call in _part_calls(test_source)]
    return [entry for entry in found if entry is not None]


def part_problems(test_source: str, points: float) -> list[str]:
    """Problems of a test cell's parts: arguments not literal, names repeated, more points than the cell has."""
    calls = _part_calls(test_source)
    problems = [f"part(...) on line {call.lineno} needs a literal name and literal positive points, "
                "e.g. part(\"other head counts\", 1)" for call in calls if _literal_part(call) is None]
    names = [name for name, _ in declared_parts(test_source)]
    problems += [f"part name {name!r} is used twice" for name in sorted({n for n in names if names.count(n) > 1})]
    total = sum(p for _, p in declared_parts(test_source))
    if total > points + 1e-9:
        problems.append(f"its parts carry {total:g} points, more than the cell's {points:g}")
    return problems


def exercises(nb: Any) -> list[Exercise]:
    """The exercises in notebook order; each test cell closes the solutions written since the last one."""
    found, pending, number, title = [], [], None, None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            heading = exercise_heading(cell.source)
            if heading:
                number, title = heading[0], exercise_title(cell.source)
        if is_solution(cell):
            pending.append(grade_id(cell))
        elif is_test(cell):
            meta = nbgrader_meta(cell)
            found.append(Exercise(meta["grade_id"], float(meta.get("points", 0)), cell.source, pending, number,
                                  denied_paths(cell.source), title, deny_reason(cell.source),
                                  declared_parts(cell.source)))
            pending = []
    return found


def _check_cell(index: int, cell: Any, seen: set[str]) -> list[str]:
    """Problems of one cell's nbgrader metadata and markers."""
    where = f"cell {index}"
    meta = nbgrader_meta(cell)
    source = cell.get("source", "")
    problems = []
    if not meta:
        for marker in (BEGIN_SOLUTION, BEGIN_HIDDEN):
            if marker in source:
                problems.append(f"{where}: has '{marker}' but no nbgrader metadata (mark it as a solution/test cell)")
        return problems
    gid = meta.get("grade_id")
    where = f"cell {index} ({gid})"
    if meta.get("schema_version") != 3:
        problems.append(f"{where}: nbgrader schema_version must be 3, got {meta.get('schema_version')!r}")
    if not isinstance(gid, str) or not GRADE_ID_PATTERN.match(gid):
        problems.append(f"{where}: grade_id must be letters, digits, '_' or '-', got {gid!r}")
    elif gid in seen:
        problems.append(f"{where}: grade_id {gid!r} is used twice; grade_ids must be unique in a notebook")
    else:
        seen.add(gid)
    try:
        blocks = solution_blocks(source)
        hidden = hidden_blocks(source)
    except ValueError as err:
        return problems + [f"{where}: {err}"]
    if is_solution(cell):
        if not blocks:
            problems.append(f"{where}: solution cell without '{BEGIN_SOLUTION}' / '{END_SOLUTION}' markers")
        if meta.get("grade", False):
            problems.append(f"{where}: solution cells graded by hand are not supported; put the points on a test cell")
        if hidden:
            problems.append(f"{where}: hidden tests belong in a test cell, not a solution cell")
    elif meta.get("grade", False):
        points = meta.get("points")
        if cell.cell_type != "code":
            problems.append(f"{where}: a test cell must be a code cell")
        if not isinstance(points, (int, float)) or isinstance(points, bool) or points <= 0:
            problems.append(f"{where}: a test cell needs positive 'points', got {points!r}")
        if not meta.get("locked", False):
            problems.append(f"{where}: a test cell must be locked ('locked': true)")
        if blocks:
            problems.append(f"{where}: '{BEGIN_SOLUTION}' in a test cell")
        problems += [f"{where}: {problem}" for problem in deny_problems(source)]
        if any(begin < line < end for line in _deny_line_numbers(source) for begin, end in hidden):
            problems.append(f"{where}: the '# deny:' line belongs in the visible part (students must see it)")
        if isinstance(points, (int, float)) and not isinstance(points, bool):
            problems += [f"{where}: {problem}" for problem in part_problems(source, float(points))]
    elif blocks or hidden:
        problems.append(f"{where}: markers in a cell that is neither a solution nor a test cell")
    return problems


def validate_source(nb: Any, name: str = "notebook") -> list[Exercise]:
    """Check the convention (markers, unique grade_ids, points, pairing); raise SourceError listing every problem."""
    problems, seen = [], set()
    for index, cell in enumerate(nb.cells):
        problems += _check_cell(index, cell, seen)
    if not problems:
        pending = 0
        for index, cell in enumerate(nb.cells):
            if is_solution(cell):
                pending += 1
            elif is_test(cell):
                if pending == 0:
                    problems.append(f"cell {index} ({grade_id(cell)}): test cell without a solution cell before it")
                pending = 0
        if pending:
            problems.append("the last solution cell has no test cell after it (its exercise would carry no points)")
        problems += _check_headings(nb)
    if problems:
        raise SourceError(f"{name}: " + "; ".join(problems))
    return exercises(nb)


def _check_headings(nb: Any) -> list[str]:
    """'### Exercise k (N points)' headings must state the points of the exercise's test cells."""
    problems, exercise_points, heading = [], {}, None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found = exercise_heading(cell.source)
            if found:
                heading = found
                exercise_points.setdefault(heading, 0.0)
        elif is_test(cell) and heading is not None:
            exercise_points[heading] += float(nbgrader_meta(cell).get("points", 0))
    for (number, stated), actual in exercise_points.items():
        if stated != actual:
            problems.append(f"Exercise {number}: heading says {stated:g} points, its test cells carry {actual:g}")
    return problems
