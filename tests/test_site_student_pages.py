"""The site shows the student edition: no solution, hidden test or speaker note in a built page, the run's
outputs everywhere but on the exercises, a list of every lesson and a search on each page.

Checked on notebook 01 in both languages with made-up outputs (no kernel: seconds); the real pages built by
executing notebooks are grepped the same way in tests/browser/test_static_site.py.
"""

from __future__ import annotations

import copy
import re

import nbformat
import pytest

from utils.grading.notebook import hidden_blocks, is_solution, is_test, solution_blocks
from utils.site.build import export_html
from utils.site.languages import chinese_version
from utils.site.navigation import add_search, site_nav
from utils.site.student_pages import student_page
from utils.student.edition import student_notebook
from utils.student.layout import SOURCE_DIR

NAME = "01_autoregression.ipynb"


def secrets_of(source: nbformat.NotebookNode) -> list[str]:
    """Every line inside a solution or hidden-test block of the source (markers excluded) that a student never
    sees elsewhere (a `with torch.no_grad():` is no secret), long enough to mean something."""
    public = "\n".join(cell.source for cell in student_notebook(source).cells)
    found = []
    for cell in source.cells:
        lines = cell.source.splitlines()
        for begin, end in solution_blocks(cell.source) + hidden_blocks(cell.source):
            found += [line.strip() for line in lines[begin + 1 : end]
                      if len(line.strip()) >= 20 and line.strip() not in public]
    return found


def answer_leaks(page: str, source: nbformat.NotebookNode) -> list[str]:
    """Markers, solution lines and hidden-test lines found in a built page (HTML-unescaped)."""
    import html

    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    leaks = [m for m in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS") if m in text]
    return leaks + [line for line in secrets_of(source) if line in text]


def _ran(source: nbformat.NotebookNode) -> nbformat.NotebookNode:
    executed = copy.deepcopy(source)
    for cell in executed.cells:
        if cell.cell_type == "code":
            cell.outputs = [nbformat.v4.new_output("stream", text=f"OUTPUT-OF-{cell.id}\n")]
            cell.execution_count = 1
    return executed


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_built_page_has_no_answer_and_keeps_the_other_outputs(lang):
    english = nbformat.read(SOURCE_DIR / NAME, as_version=4)
    source = english if lang == "en" else nbformat.read(SOURCE_DIR / "zh" / NAME, as_version=4)
    executed = _ran(english) if lang == "en" else chinese_version(_ran(english), SOURCE_DIR / "zh" / NAME)
    shown = student_page(source, executed, NAME)
    page = export_html(shown, None, "02_ngram_models.html", lang=lang,
                       nav=site_nav([("01_autoregression.html", "01"), ("02_ngram_models.html", "02")],
                                    "01_autoregression.html", lang, ""))
    assert secrets_of(source), "no solution found to look for"
    assert not answer_leaks(page, source)
    exercise_ids = [c.id for c in source.cells if is_solution(c) or is_test(c)]
    assert exercise_ids and not [i for i in exercise_ids if f"OUTPUT-OF-{i}" in page], "an exercise shows its output"
    others = [c.id for c in shown.cells if c.cell_type == "code" and c.id not in exercise_ids]
    assert others and all(f"OUTPUT-OF-{i}" in page for i in others), "the run's outputs are missing"
    assert "Speaker notes" not in page and "演讲者" not in page
    assert 'class="lm-search"' in page and 'href="02_ngram_models.html"' in page and 'aria-current="page"' in page


def test_the_leak_check_can_fail():
    source = nbformat.read(SOURCE_DIR / NAME, as_version=4)
    page = export_html(_ran(source), None, None)  # the instructors' notebook itself
    assert answer_leaks(page, source)


def test_a_page_whose_code_was_not_run_is_refused():
    source = nbformat.read(SOURCE_DIR / NAME, as_version=4)
    executed = _ran(source)
    executed.cells = [c for c in executed.cells if c.cell_type != "code" or is_solution(c) or is_test(c)]
    with pytest.raises(ValueError, match="was not run"):
        student_page(source, executed, NAME)


def test_the_index_gets_a_search_under_its_heading():
    page = add_search("<html><body><h1>Course</h1><ol></ol></body></html>", "zh", "../")
    assert page.index("</h1>") < page.index('class="lm-search"') < page.index("<ol></ol>")
    assert 'src="../assets/search-index.js"' in page
