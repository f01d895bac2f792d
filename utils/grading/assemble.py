"""Put a submission together for grading: the student's cells, with the original test cells put back."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from IPython.core.inputtransformer2 import TransformerManager

from utils.grading.notebook import Exercise, grade_id, is_solution, is_test

_TRANSFORMER = TransformerManager()


SKIP_TAG = "skip-when-grading"  # a source cell with this tag is not run by the grader (the exercises do not need it)


@dataclass
class Plan:
    """What the harness runs: cells in order, the reference imports, deny-lists, and the exercises already lost.

    Each cell is {"kind": "code" | "test", "grade_id", "source", "role", "exercise"}; role is
    "trusted" (an instructor cell, unchanged), "changed" (an instructor cell the student edited),
    "solution" (a solution cell of exercise `exercise`), "added" (a cell the source does not have) or
    "test" (the original test cell of exercise `exercise`).
    """

    cells: list[dict] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    solution_names: list[str] = field(default_factory=list)
    lost: dict[str, str] = field(default_factory=dict)  # test_id -> grade_id of a missing solution cell
    denied: dict[str, list[str]] = field(default_factory=dict)
    skipped: int = 0

    def job(self, lang: str = "en") -> dict:
        """The job the harness runs (everything it needs, as JSON-able data); `lang`: the student's edition."""
        return {"cells": self.cells, "imports": self.imports, "solution_names": self.solution_names,
                "denied": self.denied, "lang": lang}


def python_source(source: str) -> str:
    """Cell source with IPython syntax (magics, `!` commands) turned into plain Python."""
    return _TRANSFORMER.transform_cell(source)


def _parse(source: str) -> ast.Module | None:
    """The AST of a cell, or None when it does not parse."""
    try:
        return ast.parse(python_source(source))
    except (SyntaxError, ValueError):
        return None


def top_level_imports(source: str) -> list[str]:
    """The top-level `import` / `from ... import` statements of a cell, as source text."""
    tree = _parse(source)
    if tree is None:
        return []
    found = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (
            isinstance(node, ast.ImportFrom) and (node.level or node.module == "__future__")
        ):
            found.append(ast.unparse(node))
    return found


def bound_names(source: str) -> set[str]:
    """Names a cell binds at top level (def, class, assignment, import, for, with)."""
    tree = _parse(source)
    if tree is None:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
    return names


def reference_imports(source_nb: Any) -> tuple[list[str], list[str]]:
    """Imports of the instructor's cells (not solutions), and the names the solutions define."""
    imports, solution_names = [], set()
    for cell in source_nb.cells:
        if cell.cell_type != "code":
            continue
        if is_solution(cell):
            solution_names |= bound_names(cell.source)
        else:
            imports += [line for line in top_level_imports(cell.source) if line not in imports]
    return imports, sorted(solution_names)


def _tags(cell: Any) -> list[str]:
    """A cell's metadata tags."""
    tags = cell.get("metadata", {}).get("tags", [])
    return [tag for tag in tags if isinstance(tag, str)] if isinstance(tags, list) else []


def plan_submission(source_nb: Any, submission_nb: Any, exercise_list: list[Exercise]) -> Plan:
    """Cells to run for one submission; tests come from the source whatever the student did to them."""
    tests = {exercise.test_id: exercise for exercise in exercise_list}
    owner = {sid: exercise.test_id for exercise in exercise_list for sid in exercise.solution_ids}
    source_order = [grade_id(cell) for cell in source_nb.cells if is_solution(cell) or is_test(cell)]
    instructor = [cell for cell in source_nb.cells if cell.cell_type == "code" and not is_solution(cell)
                  and not is_test(cell)]
    instructor_sources = {cell.source for cell in instructor}
    instructor_ids = {cell.get("id") for cell in instructor if cell.get("id")}
    skip_ids = {cell.get("id") for cell in source_nb.cells if cell.get("id") and SKIP_TAG in _tags(cell)}
    plan = Plan()
    plan.imports, plan.solution_names = reference_imports(source_nb)
    plan.denied = {exercise.test_id: list(exercise.denied) for exercise in exercise_list if exercise.denied}
    placed, present = set(), set()
    for cell in submission_nb.cells:
        gid = grade_id(cell)
        if gid is not None:
            present.add(gid)
        if cell.cell_type != "code":
            continue
        if gid in tests and gid not in placed:
            plan.cells.append({"kind": "test", "grade_id": gid, "source": tests[gid].test_source, "role": "test",
                               "exercise": gid})
            placed.add(gid)
        elif cell.get("id") in skip_ids and gid not in owner:
            plan.skipped += 1
        else:
            if gid in owner:
                role = "solution"
            elif cell.source in instructor_sources:
                role = "trusted"
            else:
                role = "changed" if cell.get("id") in instructor_ids else "added"
            plan.cells.append({"kind": "code", "grade_id": gid, "source": cell.source, "role": role,
                               "exercise": owner.get(gid)})
    for exercise in exercise_list:
        if exercise.test_id not in placed:
            _insert_test(plan, exercise, source_order)
        missing = [sid for sid in exercise.solution_ids if sid not in present]
        if missing:
            plan.lost[exercise.test_id] = missing[0]  # the first solution cell missing (rows.py words it)
    return plan


def _insert_test(plan: Plan, exercise: Exercise, source_order: list[str]) -> None:
    """Put a test cell the student deleted back after the last cell that comes before it in the source."""
    before = set(source_order[: source_order.index(exercise.test_id)])
    position = len(plan.cells)
    for index, cell in enumerate(plan.cells):
        if cell["grade_id"] in before:
            position = index + 1
    plan.cells.insert(position, {"kind": "test", "grade_id": exercise.test_id, "source": exercise.test_source,
                                 "role": "test", "exercise": exercise.test_id})
