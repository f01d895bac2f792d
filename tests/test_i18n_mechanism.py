"""The Chinese edition's translation files notice every change to the English (on a throwaway course)."""

from pathlib import Path

import nbformat
import pytest

from utils.i18n.build import build, built_notebook, built_lesson
from utils.i18n.catalog import load_catalog, status_of, sync_catalog, translate
from utils.i18n.layout import find_source, lesson_source, notebook_source
from utils.i18n.units import markdown_blocks


def _notebook(path: Path, cells: list[tuple[str, str, str]]) -> Path:
    """Write a notebook of (id, type, source) cells."""
    nb = nbformat.v4.new_notebook()
    for cell_id, kind, source in cells:
        cell = nbformat.v4.new_markdown_cell(source) if kind == "md" else nbformat.v4.new_code_cell(source)
        cell.id = cell_id
        cell.metadata["slideshow"] = {"slide_type": "slide"}
        nb.cells.append(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture
def course(tmp_path):
    """A course root with one notebook and one lesson."""
    _notebook(tmp_path / "notebooks" / "01_demo.ipynb",
              [("intro", "md", "# Demo\n\nA model predicts the next token."),
               ("code1", "code", "x = 1 + 1\nprint(x)"),
               ("outro", "md", "## Summary\n\nThe loss fell.")])
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01_demo.md").write_text(
        "# Lesson 01\n\nFirst paragraph about tokens.\n\n```python\nx = 1\n\ny = 2\n```\n\nLast line.\n",
        encoding="utf-8")
    return tmp_path


def _sources(root):
    return (notebook_source(root / "notebooks" / "01_demo.ipynb", root),
            lesson_source(root / "lessons" / "01_demo.md", root))


def test_fenced_code_stays_one_block():
    assert markdown_blocks("a\n\n```\nx\n\ny\n```\n\nb") == ["a", "```\nx\n\ny\n```", "b"]


def test_new_english_is_unsynced_then_missing_then_complete(course):
    notebook, _ = _sources(course)
    assert status_of(notebook).unsynced == ["intro", "outro"]
    sync_catalog(notebook)
    assert status_of(notebook).missing == ["intro", "outro"]
    assert translate(notebook, {"intro": "# 演示\n\n模型预测下一个词元。", "outro": "## 小结\n\n损失下降了。"}) == []
    assert status_of(notebook).complete


def test_changed_english_makes_its_translation_stale(course):
    notebook, _ = _sources(course)
    translate(notebook, {"intro": "# 演示", "outro": "## 小结"})
    english = nbformat.read(notebook.english, as_version=4)
    english.cells[2].source = "## Summary\n\nThe loss fell by half."
    nbformat.write(english, notebook.english)
    assert status_of(notebook).stale == ["outro"]
    catalog = sync_catalog(notebook)
    entry = next(e for e in catalog if e.msgctxt == "outro")
    assert "fuzzy" in entry.flags and entry.previous_msgid == "## Summary\n\nThe loss fell."
    assert status_of(notebook).stale == ["outro"]  # still stale after sync, until re-translated
    chinese = built_notebook(notebook)
    assert chinese.cells[2].source == english.cells[2].source  # a stale translation is never built in
    with pytest.raises(ValueError, match="outro are stale"):
        translate(notebook, {"outro": "## 小结"})  # an old script re-run: the old Chinese, unchanged
    translate(notebook, {"outro": "## 小结\n\n损失减半。"})
    assert status_of(notebook).complete and not load_catalog(notebook)[1].previous_msgid


def test_removed_and_added_cells(course):
    notebook, _ = _sources(course)
    translate(notebook, {"intro": "# 演示", "outro": "## 小结"})
    _notebook(notebook.english, [("intro", "md", "# Demo\n\nA model predicts the next token."),
                                 ("new", "md", "A new cell.")])
    assert status_of(notebook).unsynced == ["new"]
    catalog = sync_catalog(notebook)
    assert [e.msgctxt for e in catalog] == ["intro", "new"]


def test_build_copies_code_cells_unchanged(course):
    notebook, _ = _sources(course)
    translate(notebook, {"intro": "# 演示", "outro": "## 小结"})
    path = build(notebook)
    english, chinese = (nbformat.read(p, as_version=4) for p in (notebook.english, path))
    assert [c.id for c in english.cells] == [c.id for c in chinese.cells]
    assert chinese.cells[1].source == english.cells[1].source and chinese.cells[0].source == "# 演示"
    assert chinese.metadata["lm_course"]["lang"] == "zh"


def test_lessons_keep_old_translations_of_changed_blocks_as_fuzzy(course):
    _, lesson = _sources(course)
    assert translate(lesson, {"1": "# 第 01 课", "2": "关于词元的第一段。", "3": "```python\nx = 1\n\ny = 2\n```",
                              "4": "最后一行。"}) == []
    assert status_of(lesson).complete
    assert "关于词元的第一段。" in built_lesson(lesson) and "```python\nx = 1\n\ny = 2\n```" in built_lesson(lesson)
    lesson.english.write_text(lesson.english.read_text().replace("about tokens.", "about tokens and types."))
    assert status_of(lesson).unsynced  # the changed block has no exact entry
    sync_catalog(lesson)
    assert [label.split()[1] for label in status_of(lesson).stale] == ["2"]
    assert "First paragraph about tokens and types." in built_lesson(lesson)


def test_unknown_names_get_a_clear_error(course):
    with pytest.raises(ValueError, match="no English notebook or lesson called 'nope'"):
        find_source("nope", course)
    with pytest.raises(ValueError, match="give the file name"):
        find_source("01_demo", course)


def test_written_files_are_readable_by_other_users(course):
    """The grader's sandboxed helper runs as another uid: a catalog left at mkstemp's 0600 would be unreadable."""
    notebook, _ = _sources(course)
    sync_catalog(notebook)
    build(notebook)
    for path in (notebook.catalog, notebook.built):
        assert path.stat().st_mode & 0o044 == 0o044, f"{path} is not readable by group and others"
