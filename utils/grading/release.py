"""Student versions: each solution block becomes a stub that raises, hidden tests are removed, outputs cleared."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import nbformat

from utils.grading.notebook import (
    hidden_blocks,
    is_solution,
    is_test,
    read_notebook,
    solution_blocks,
    validate_source,
)

CODE_STUB = ["# YOUR CODE HERE", 'raise NotImplementedError("{label}: replace this line with your solution")']
MARKDOWN_STUB = ["YOUR ANSWER HERE"]


def _replace_blocks(source: str, blocks: list[tuple[int, int]], stub: list[str] | None) -> str:
    """Replace each (begin, end) line block, markers included, by `stub` at the begin marker's indentation."""
    lines = source.splitlines()
    for begin, end in reversed(blocks):
        indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
        lines[begin : end + 1] = [indent + line for line in stub] if stub else []
    return "\n".join(lines)


def stub_solution(source: str, cell_type: str = "code", label: str = "Exercise") -> str:
    """The student version of a solution cell's source."""
    stub = CODE_STUB if cell_type == "code" else MARKDOWN_STUB
    return _replace_blocks(source, solution_blocks(source), [line.format(label=label) for line in stub])


def strip_hidden_tests(source: str) -> str:
    """The student version of a test cell's source: hidden-test blocks removed, visible checks kept."""
    return _replace_blocks(source, hidden_blocks(source), None).rstrip("\n")


def release_notebook(nb: Any, name: str = "notebook") -> nbformat.NotebookNode:
    """A validated student copy of a source notebook (the source is left unchanged)."""
    exercise_list = validate_source(nb, name)
    labels = {}
    for exercise in exercise_list:
        label = f"Exercise {exercise.number}" if exercise.number is not None else "Exercise"
        labels.update({solution_id: label for solution_id in exercise.solution_ids})
    student = copy.deepcopy(nb)
    for cell in student.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if is_solution(cell):
            cell.source = stub_solution(cell.source, cell.cell_type, labels.get(cell.metadata.nbgrader["grade_id"], "Exercise"))
        elif is_test(cell):
            cell.source = strip_hidden_tests(cell.source)
    return student


def release(sources: list[Path], out_dir: Path) -> list[Path]:
    """Write the student version of each source notebook into `out_dir`; returns the written paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sources:
        student = release_notebook(read_notebook(source), str(source))
        target = out_dir / Path(source).name
        nbformat.write(student, target)
        written.append(target)
    return written
