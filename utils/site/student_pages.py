"""The site's pages are the student edition: the instructors' notebook is executed (its exercises need their
solutions to run), then shown as students get it (utils.student.edition: solutions stubbed, hidden tests and
speaker notes out), with the run's outputs on every cell except the exercises' own."""

from __future__ import annotations

import nbformat

from utils.grading.notebook import is_solution, is_test
from utils.student.edition import student_notebook


def student_page(source: nbformat.NotebookNode, executed: nbformat.NotebookNode,
                 name: str = "notebook") -> nbformat.NotebookNode:
    """The student edition of `source` with the outputs of `executed` (the same code cells, run), by cell id."""
    page = student_notebook(source, name)
    run = {cell.get("id"): cell for cell in executed.cells if cell.cell_type == "code"}
    for cell in page.cells:
        if cell.cell_type != "code" or is_solution(cell) or is_test(cell):
            continue  # an exercise's cells show no output: it would give the answer away
        ran = run.get(cell.get("id"))
        if ran is None or ran.source != cell.source:
            raise ValueError(f"{name}: code cell {cell.get('id')} was not run as the page shows it; "
                             "run `python -m utils.i18n build` and build again")
        cell.outputs, cell.execution_count = ran.outputs, ran.execution_count
    if "widgets" in executed.metadata:
        page.metadata["widgets"] = executed.metadata["widgets"]
    return page
