"""Committed notebooks carry no outputs or execution counts, and follow the course's shape."""

from pathlib import Path

import nbformat
import pytest

from tests.notebook_rules import notebook_problems

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_the_sequence_exists_and_is_numbered_in_order():
    assert NOTEBOOKS, "notebooks/ holds no notebooks"
    numbers = [int(p.name[:2]) for p in NOTEBOOKS]
    assert numbers == list(range(1, len(NOTEBOOKS) + 1)), f"notebook numbers must run 01, 02, ... without gaps: {numbers}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_clean(path):
    problems = notebook_problems(path)
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_the_rules_catch_a_dirty_notebook(tmp_path):
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("import sys\nsys.path.append('..')\nprint(1)")
    cell.execution_count = 3
    cell.outputs = [nbformat.v4.new_output("stream", text="1\n")]
    notebook.cells = [nbformat.v4.new_markdown_cell("no title"), cell]
    path = tmp_path / "draft.ipynb"
    nbformat.write(notebook, path)
    problems = "\n".join(notebook_problems(path))
    for expected in ("NN_short_name", "kernelspec", "has outputs", "execution count 3", "sys.path", "tagged 'parameters'", "title"):
        assert expected in problems
