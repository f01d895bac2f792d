"""The static site in both languages: Chinese pages from the English run's outputs, a switch on every page."""

import re
from pathlib import Path

import nbformat
import pytest

from tests.browser.demo_notebooks import write_figure_notebook
from utils.site import build_site
from utils.site.languages import add_switch, chinese_version


def _chinese_copy(english: Path) -> Path:
    """notebooks/zh/<name> for a notebook: same cells, the markdown in Chinese."""
    nb = nbformat.read(english, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = "# 图与公式\n\n这是中文说明。"
    path = english.parent / "zh" / english.name
    path.parent.mkdir()
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    source = tmp_path_factory.mktemp("src")
    english = write_figure_notebook(source, "02_figure.ipynb")
    _chinese_copy(english)
    lessons = tmp_path_factory.mktemp("lessons")
    (lessons / "02_figure.md").write_text("# Lesson 02\n\nSee [the notebook](../notebooks/02_figure.ipynb).\n")
    (lessons / "zh").mkdir()
    (lessons / "zh" / "02_figure.md").write_text("# 第 02 课\n\n见[笔记本](../../notebooks/zh/02_figure.ipynb)。\n")
    out = tmp_path_factory.mktemp("site")
    build_site(out, [english], fast=True, timeout_s=300, log=lambda m: None, lessons_dir=lessons)
    return out


def _images(page: str) -> list[str]:
    return re.findall(r'src="data:image/png;base64,([^"]+)"', page)


def test_chinese_page_has_the_english_outputs_and_chinese_prose(site):
    english, chinese = (site / "02_figure.html").read_text(), (site / "zh" / "02_figure.html").read_text()
    assert "这是中文说明" in chinese and "这是中文说明" not in english
    assert _images(english) and _images(chinese) == _images(english), "the figures differ between the languages"
    assert 'href="../02_figure.html">English' in chinese and 'href="zh/02_figure.html">中文' in english
    assert "全部课程" in chinese and (site / "zh" / "vendor").is_dir()


def test_chinese_index_and_lesson(site):
    index = (site / "zh" / "index.html").read_text()
    assert 'href="02_figure.html"' in index and "图与公式" in index and 'href="lesson_02_figure.html"' in index
    lesson = (site / "zh" / "lesson_02_figure.html").read_text()
    assert 'href="02_figure.html"' in lesson, "the Chinese lesson links the Chinese page"
    assert 'href="zh/index.html">中文' in (site / "index.html").read_text()


def test_mismatched_cells_are_refused(tmp_path):
    english = write_figure_notebook(tmp_path, "02_figure.ipynb")
    chinese = _chinese_copy(english)
    nb = nbformat.read(chinese, as_version=4)
    nb.cells.pop()
    nbformat.write(nb, chinese)
    with pytest.raises(ValueError, match="run `python -m utils.i18n build`"):
        chinese_version(nbformat.read(english, as_version=4), chinese)


def test_switch_needs_a_body():
    assert add_switch("<html><body class='x'>hi</body></html>", "zh/a.html", "中文").startswith(
        "<html><body class='x'>\n<span")
    with pytest.raises(ValueError):
        add_switch("<html></html>", "a", "b")


def test_no_chinese_folder_without_chinese_notebooks(tmp_path):
    (tmp_path / "src").mkdir()
    english = write_figure_notebook(tmp_path / "src", "02_figure.ipynb")
    out = tmp_path / "site"
    build_site(out, [english], fast=True, timeout_s=300, log=lambda m: None, lessons_dir=tmp_path / "none")
    assert (out / "02_figure.html").is_file() and not (out / "zh").exists()
    assert "中文" not in (out / "02_figure.html").read_text(), "no switch to a Chinese page that does not exist"
