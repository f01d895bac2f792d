"""What every committed notebook must satisfy: no outputs, no execution counts, the course's shape."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

NOTEBOOK_NAME = re.compile(r"^\d\d_[a-z0-9_]+\.ipynb$")
FORBIDDEN_SOURCE = {
    "sys.path": re.compile(r"sys\.path\.(append|insert)"),
    "a global warnings filter": re.compile(r"warnings\.(filterwarnings|simplefilter)\(\s*['\"]ignore['\"]\s*\)"),
}


def notebook_problems(path: Path) -> list[str]:
    """Every rule `path` breaks, as sentences naming the cell and what to do."""
    problems: list[str] = []
    if not NOTEBOOK_NAME.match(path.name):
        problems.append(f"file name {path.name!r} must look like 'NN_short_name.ipynb'")
    notebook = nbformat.read(path, as_version=4)
    kernel = notebook.metadata.get("kernelspec", {}).get("name")
    if kernel != "python3":
        problems.append(f"kernelspec must be 'python3', got {kernel!r}")
    code_cells = [(i, c) for i, c in enumerate(notebook.cells) if c.cell_type == "code"]
    for index, cell in code_cells:
        if cell.get("outputs"):
            problems.append(f"cell {index} has outputs: clear them (e.g. `jupyter nbconvert --clear-output --inplace`)")
        if cell.get("execution_count") is not None:
            problems.append(f"cell {index} has execution count {cell.execution_count}: clear outputs before committing")
        for what, pattern in FORBIDDEN_SOURCE.items():
            if pattern.search(cell.source):
                problems.append(f"cell {index} uses {what}; the package is installed, and warnings should stay visible")
    tagged = [i for i, c in code_cells if "parameters" in c.metadata.get("tags", [])]
    if len(tagged) != 1:
        problems.append(f"exactly one code cell must be tagged 'parameters', found {len(tagged)}")
    if not notebook.cells or not notebook.cells[0].source.lstrip().startswith("# "):
        problems.append("the first cell must be a markdown title '# NN · Title'")
    return problems
