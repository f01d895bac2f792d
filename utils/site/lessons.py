"""Lesson plans (lessons/NN_name.md) as HTML pages of the static site, linking the exported notebooks."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import quote, unquote

DEFAULT_LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
_NOTEBOOK_LINK = re.compile(r'href="(?:\.\./)*notebooks/(?:zh/)?(\d\d_[a-z0-9_]+)\.ipynb(#[^"]*)?"')
# The exported pages' heading ids are the heading text with '-' for spaces, percent-encoded except for these
# characters (nbconvert.filters.strings._convert_header_id): a `{` is `%7B` in the id itself, so a fragment that
# links a built page is written the same way (a link written for JupyterLab, `$b_{ij}$` or `%28`, finds no heading).
_HEADING_ID_SAFE = "?/:@!$&'()*+,;="

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; max-width: 52em; margin: 2em auto; line-height: 1.5; padding: 0 1em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }}
code {{ background: #f4f4f4; padding: 0 3px; }}
</style>
<script>window.MathJax = {{options: {{enableMenu: false}}, svg: {{fontCache: 'global'}}}};</script>
<script src="vendor/mathjax/tex-svg-full.js" defer></script>
</head>
<body>
<nav><a href="index.html">&larr; All lessons</a></nav>
{body}
</body>
</html>
"""


def lesson_path(notebook_name: str, lessons_dir: Path = DEFAULT_LESSONS_DIR) -> Path | None:
    """The lesson plan of notebook `NN_name.ipynb` (lessons/NN_name.md), or None when it has none."""
    path = lessons_dir / Path(notebook_name).with_suffix(".md").name
    return path if path.is_file() else None


def render_lesson(markdown_path: Path, built_pages: set[str]) -> str:
    """The lesson as a standalone page; links to a built notebook point at its HTML page instead."""
    import mistune

    text = markdown_path.read_text(encoding="utf-8")
    to_html = mistune.create_markdown(plugins=["table", "math", "url"], escape=False)
    body = to_html(text)

    def relink(match: re.Match) -> str:
        stem, anchor = match.group(1), match.group(2) or ""
        if f"{stem}.html" not in built_pages:
            return f'href="notebooks/{stem}.ipynb{anchor}"'
        if anchor:
            anchor = "#" + quote(unquote(anchor[1:]), safe=_HEADING_ID_SAFE)
        return f'href="{stem}.html{anchor}"'

    body = _NOTEBOOK_LINK.sub(relink, body)
    title_match = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
    title = title_match.group(1).strip() if title_match else markdown_path.stem
    return _PAGE.format(title=html.escape(title), body=body)
