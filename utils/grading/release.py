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

from utils.i18n.text import _folder_language, in_language, tr


def _code_stub(number: int | None) -> list[str]:
    """The lines of a code solution's stub, in the current language (a comment, then a raise that names the exercise)."""
    label = tr("Exercise {number}", number=number) if number is not None else tr("Exercise")
    message = tr("{label}: replace this line with your solution", label=label)
    return ["# " + tr("YOUR CODE HERE"), f'raise NotImplementedError("{message}")']


def _markdown_stub() -> list[str]:
    """The lines of a written answer's stub, in the current language."""
    return [tr("YOUR ANSWER HERE")]


def edition_language(name: str | Path) -> str:
    """The language of a source notebook by its folder (notebooks/zh/... is 'zh'), else 'en'."""
    return _folder_language(Path(name).parent) or "en"


def _replace_blocks(source: str, blocks: list[tuple[int, int]], stub: list[str] | None) -> str:
    """Replace each (begin, end) line block, markers included, by `stub` at the begin marker's indentation."""
    lines = source.splitlines()
    for begin, end in reversed(blocks):
        indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
        lines[begin : end + 1] = [indent + line for line in stub] if stub else []
    return "\n".join(lines)


def stub_solution(source: str, cell_type: str = "code", number: int | None = None, lang: str = "en") -> str:
    """The student version of a solution cell's source (its stub in `lang`)."""
    with in_language(lang):
        stub = _code_stub(number) if cell_type == "code" else _markdown_stub()
    return _replace_blocks(source, solution_blocks(source), stub)


def strip_hidden_tests(source: str) -> str:
    """The student version of a test cell's source: hidden-test blocks removed, visible checks kept."""
    return _replace_blocks(source, hidden_blocks(source), None).rstrip("\n")


def release_notebook(nb: Any, name: str = "notebook") -> nbformat.NotebookNode:
    """A validated student copy of a source notebook (the source is left unchanged); stubs in the folder's language."""
    exercise_list = validate_source(nb, name)
    lang = edition_language(name)
    numbers = {solution_id: exercise.number for exercise in exercise_list for solution_id in exercise.solution_ids}
    student = copy.deepcopy(nb)
    for cell in student.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if is_solution(cell):
            cell.source = stub_solution(cell.source, cell.cell_type, numbers.get(cell.metadata.nbgrader["grade_id"]), lang)
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
