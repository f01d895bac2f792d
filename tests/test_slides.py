"""Every notebook is a slide deck: slide metadata on every cell, chosen for lecturing, and it converts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbconvert import SlidesExporter

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SLIDE_TYPES = {"slide", "subslide", "fragment", "skip", "notes", "-"}
LONG_CODE_LINES = 40  # longer code cells are set-up or helpers: skip them or hide their input


def _slide_type(cell) -> str | None:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type")


def _input_hidden(cell) -> bool:
    """Input collapsed in JupyterLab or tagged to hide it in exported slides."""
    tags = set(cell.metadata.get("tags", []))
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden")) or bool(tags & {"hide-input", "remove-input"})


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=lambda p: p.stem)
def notebook(request) -> tuple[str, nbformat.NotebookNode]:
    return request.param.name, nbformat.read(request.param, as_version=4)


def test_every_cell_has_a_slide_type(notebook) -> None:
    name, nb = notebook
    missing = [i for i, cell in enumerate(nb.cells) if _slide_type(cell) not in SLIDE_TYPES]
    assert not missing, f"{name}: cells {missing} need metadata.slideshow.slide_type in {sorted(SLIDE_TYPES)}"
    assert _slide_type(nb.cells[0]) == "slide", f"{name}: the title cell opens the first slide"


def test_each_section_heading_starts_a_slide(notebook) -> None:
    name, nb = notebook
    wrong = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "markdown"
             and re.match(r"#{1,2} ", cell.source.lstrip()) and _slide_type(cell) != "slide"]
    assert not wrong, f"{name}: cells {wrong} start a section (# or ## heading) but not a slide"


def test_long_code_is_skipped_or_hidden(notebook) -> None:
    name, nb = notebook
    long_cells = [(i, len(cell.source.splitlines())) for i, cell in enumerate(nb.cells)
                  if cell.cell_type == "code" and len(cell.source.splitlines()) > LONG_CODE_LINES
                  and _slide_type(cell) not in {"skip", "notes"} and not _input_hidden(cell)]
    assert not long_cells, (f"{name}: code cells (index, lines) {long_cells} are too long for a slide; move the code "
                            "into utils/, or mark the cell 'skip', or hide its input (jupyter.source_hidden)")


def test_converts_to_slides(notebook) -> None:
    name, nb = notebook
    html, _ = SlidesExporter().from_notebook_node(nb)
    slides = sum(_slide_type(cell) == "slide" for cell in nb.cells)
    assert "reveal" in html.lower(), f"{name}: not a reveal.js deck"
    assert html.count("<section") >= slides, f"{name}: expected at least {slides} slides"


def test_nbconvert_command_line_makes_slides(tmp_path: Path) -> None:
    source = ROOT / "tests" / "fixtures" / "grading" / "source" / "assignment.ipynb"
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "slides", str(source),
                           "--output-dir", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "assignment.slides.html").read_text()
    assert html.count("<section") >= 5 and "Exercise 2 (3 points)" in html
