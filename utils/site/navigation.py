"""Navigation between the site's pages: a list of every lesson on each page and a search over both languages.

The search index is a script (assets/search-index.js) rather than JSON, so the site works opened from disk,
where a page may not fetch files; assets/search.js (ours) matches every word of the query in a page's title
and text, and lists the pages of both languages.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import nbformat

ASSETS_DIR = Path(__file__).resolve().parent / "assets"
TEXT = {"en": {"contents": "All lessons", "search": "Search the course (both languages)", "none": "no match"},
        "zh": {"contents": "全部课程", "search": "搜索课程（中英文）", "none": "没有找到"}}
PAGE_TEXT_CHARS = 20_000  # of each page's prose in the index


def search_form(lang: str, root: str) -> str:
    """The search box, its result list and the scripts it needs; `root` leads from the page to the site root."""
    text = TEXT[lang]
    return (f'<form class="lm-search" role="search" style="margin: 6px 0;">'
            f'<input type="search" aria-label="{text["search"]}" placeholder="{text["search"]}" '
            f'data-none="{text["none"]}" style="width: 22em; font-size: 15px;">'
            f'<ol class="lm-search-results" hidden></ol></form>\n'
            f'<script src="{root}assets/search-index.js"></script>\n'
            f'<script src="{root}assets/search.js" data-root="{root}"></script>')


def lesson_list(lessons: Sequence[tuple[str, str]], current: str | None, lang: str) -> str:
    """Every lesson of one language, (page, title) in course order, the current one marked."""
    items = []
    for page, title in lessons:
        label = html.escape(title)
        items.append(f'<li><strong aria-current="page">{label}</strong></li>' if page == current
                     else f'<li><a href="{html.escape(page)}">{label}</a></li>')
    return (f'<details class="lm-toc"><summary>{TEXT[lang]["contents"]}</summary>'
            f'<ol>{"".join(items)}</ol></details>')


def site_nav(lessons: Sequence[tuple[str, str]], current: str | None, lang: str, root: str) -> str:
    """What a notebook page shows under its top links: the lesson list and the search."""
    return lesson_list(lessons, current, lang) + "\n" + search_form(lang, root)


def add_search(page: str, lang: str, root: str) -> str:
    """An index page with the search placed right after its first heading."""
    end = page.find("</h1>")
    if end < 0:
        raise ValueError("the index page has no <h1> to put the search under")
    end += len("</h1>")
    return page[:end] + "\n" + search_form(lang, root) + page[end:]


def page_text(notebook: nbformat.NotebookNode) -> str:
    """The prose of a page for the search: its markdown, markup stripped, whitespace collapsed."""
    prose = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    prose = re.sub(r"<[^>]+>|[#*`>|]", " ", prose)
    return re.sub(r"\s+", " ", prose).strip()[:PAGE_TEXT_CHARS]


def write_search_assets(out: Path, entries: Sequence[dict]) -> None:
    """assets/search-index.js ({url, title, lang, text} per page, urls from the site root) and search.js."""
    assets = out / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ASSETS_DIR / "search.js", assets / "search.js")
    payload = json.dumps(list(entries), ensure_ascii=False).replace("</", "<\\/")
    (assets / "search-index.js").write_text(f"window.LM_SEARCH_INDEX = {payload};\n", encoding="utf-8")
