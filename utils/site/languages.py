"""The Chinese pages of the static site: the English run's outputs under the Chinese prose, in site/zh/.

The Chinese notebooks have the English notebooks' code cells (tests/test_i18n_sync.py), so the site
does not run them again: it takes the executed English notebook and puts each Chinese markdown cell
in place by cell id. Every page, in both languages, links to its counterpart.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Sequence
from pathlib import Path

import nbformat

LANG = "zh"
SWITCH_STYLE = "float: right; font-family: sans-serif;"


def chinese_notebook_path(english: Path) -> Path:
    """Where the Chinese edition of an English notebook lives: notebooks/zh/<same name>."""
    return english.parent / LANG / english.name


def chinese_version(executed: nbformat.NotebookNode, chinese_path: Path) -> nbformat.NotebookNode:
    """The executed English notebook with the Chinese markdown of `chinese_path` put in by cell id."""
    chinese = nbformat.read(chinese_path, as_version=4)
    prose = {cell.id: cell.source for cell in chinese.cells if cell.cell_type == "markdown"}
    english_ids = [cell.get("id") for cell in executed.cells]
    if english_ids != [cell.get("id") for cell in chinese.cells]:
        raise ValueError(f"{chinese_path} does not have the cells of its English notebook; "
                         "run `python -m utils.i18n build`")
    result = copy.deepcopy(executed)
    for cell in result.cells:
        if cell.cell_type == "markdown":
            cell.source = prose[cell.id]
    result.metadata["lm_course"] = chinese.metadata.get("lm_course", {"lang": LANG})
    return result


def switch_link(href: str, label: str) -> str:
    """The language switch shown at the top of every page."""
    return f'<span class="lm-lang-switch" style="{SWITCH_STYLE}"><a href="{html.escape(href)}">{label}</a></span>'


def add_switch(page: str, href: str, label: str) -> str:
    """A page with the language switch placed right after <body>."""
    marker = "<body"
    start = page.find(marker)
    if start < 0:
        raise ValueError("page has no <body> to put the language switch in")
    end = page.index(">", start) + 1
    return page[:end] + "\n" + switch_link(href, label) + page[end:]


def write_chinese_index(out: Path, rows: Sequence[tuple[str, str, str | None, str]], fast: bool) -> Path:
    """zh/index.html: (title, page, lesson page or None, notebook file name) in course order."""
    items = []
    for title, page, lesson_page, notebook in rows:
        plan = f'<a href="{html.escape(lesson_page)}">教案</a> · ' if lesson_page else ""
        items.append(f'  <li><a href="{html.escape(page)}">{html.escape(title)}</a>'
                     f' <small>({plan}<a href="notebooks/{html.escape(notebook)}">.ipynb</a>)</small></li>')
    mode = "快速（测试）规模" if fast else "完整规模"
    page = f"""<!DOCTYPE html>
<html lang="zh-Hans">
<head><meta charset="utf-8"><title>语言模型：从 n 元语法到 Transformer</title>
<style>body {{ font-family: sans-serif; max-width: 46em; margin: 2em auto; line-height: 1.6; }}</style>
</head>
<body>
{switch_link("../index.html", "English")}
<h1>语言模型：从 n 元语法到 Transformer</h1>
<p>各课的笔记本已经运行（{mode}）并导出，附带图和交互控件的最终状态。在这里无需运行任何东西即可阅读：
在浏览器中完成的交互（指向一个词元、温度、top-k 与 top-p、选择网格中的格子）在这里同样可用；需要运行中内核的控件已被禁用，并会注明这一点。
要使用这些控件、运行代码，请在 JupyterLab 中打开笔记本。</p>
<ol class="lm-lessons">
{chr(10).join(items)}
</ol>
</body>
</html>
"""
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
