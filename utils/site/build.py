"""Execute the notebooks and export them to an offline static site: one HTML page per lesson
(figures embedded, widgets in their last state, rendered by a vendored html-manager), and an
index page in course order. Nothing is loaded from the network; open site/index.html from disk.
anywidget views (their ES module is in the saved state) render and stay interactive where they
need no kernel: RequireJS maps the `anywidget` module to the vendored copy of its front end. Controls
that need a kernel (marked by utils/widgets/kernel_only.py) are disabled there, with a visible note
in the page's language (templates/course).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat

from utils.site.languages import LANG, add_switch, chinese_notebook_path, chinese_version, write_chinese_index
from utils.site.lessons import DEFAULT_LESSONS_DIR, lesson_path, render_lesson
from utils.site.navigation import add_search, page_text, site_nav, write_search_assets
from utils.site.student_pages import student_page

PACKAGE_DIR = Path(__file__).resolve().parent
VENDOR_DIR = PACKAGE_DIR / "vendor"
TEMPLATE_DIR = PACKAGE_DIR / "templates"
DEFAULT_NOTEBOOKS_DIR = PACKAGE_DIR.parents[1] / "notebooks"
NOTEBOOK_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
VENDORED_FILES = (
    "html-manager/embed-amd.js",
    "requirejs/require.js",
    "requirejs/LICENSE",
    "anywidget/index.js",
    "anywidget/LICENSE",
    "html-manager/LICENSE",
    "html-manager/THIRD-PARTY-NOTICES.txt",
    "mathjax/tex-svg-full.js",
    "mathjax/LICENSE",
)
# Figures shown inline as in JupyterLab (a test run may have set MPLBACKEND=Agg, which hides them).
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


@dataclass
class Lesson:
    """One exported notebook: its number, title, page and how long it took to run."""

    number: str
    title: str
    notebook: Path
    page: str
    seconds: float
    lesson_page: str | None = None


def course_notebooks(folder: Path = DEFAULT_NOTEBOOKS_DIR) -> list[Path]:
    """The course's notebooks (`NN_name.ipynb`) in `folder`, in course order."""
    if not folder.is_dir():
        raise FileNotFoundError(f"notebook folder {folder} does not exist; pass --notebooks-dir")
    return sorted(path for path in folder.iterdir() if NOTEBOOK_NAME.match(path.name))


def notebook_title(notebook: nbformat.NotebookNode, fallback: str) -> str:
    """The text of the first '# ' heading in the notebook (the title cell), else `fallback`."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def execute_notebook(path: Path, workdir: Path, fast: bool, timeout_s: int) -> nbformat.NotebookNode:
    """Run `path` top to bottom in a fresh python3 kernel inside `workdir`, keeping the widgets' state."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout_s,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
        store_widget_state=True,
    )
    try:
        client.execute(env={**os.environ, "LM_FAST": "1" if fast else "0", "MPLBACKEND": INLINE_BACKEND})
    except CellExecutionError as error:
        message = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # no terminal colours in the message
        raise RuntimeError(f"{path.name} failed while building the site; fix the notebook first:\n{message}") from None
    return notebook


NAV_LABELS = {"en": {"nav_all": "&larr; All lessons", "nav_previous": "previous", "nav_next": "next",
                     "kernel_note": "needs a running kernel: open the notebook in JupyterLab to use this control"},
              "zh": {"nav_all": "&larr; 全部课程", "nav_previous": "上一课", "nav_next": "下一课",
                     "kernel_note": "此控件需要运行中的内核：请在 JupyterLab 中打开这个笔记本再使用"}}


def export_html(notebook: nbformat.NotebookNode, previous_page: str | None, next_page: str | None,
                lang: str = "en", nav: str = "") -> str:
    """The notebook as a standalone HTML page whose scripts come from ./vendor (see templates/course);
    `nav` (HTML: the lesson list and the search, utils.site.navigation) goes under the top links."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="course", extra_template_basedirs=[str(TEMPLATE_DIR)])
    resources = {"vendor_url": "vendor", "previous_page": previous_page, "next_page": next_page, "site_nav": nav,
                 **NAV_LABELS[lang]}
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    return body


def copy_vendor(out: Path) -> None:
    """Copy the vendored renderer (html-manager, RequireJS, anywidget) and MathJax next to the pages."""
    for relative in VENDORED_FILES:
        source = VENDOR_DIR / relative
        if not source.is_file():
            raise FileNotFoundError(f"{source} is missing; see {VENDOR_DIR / 'README.md'} to restore it")
        target = out / "vendor" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def write_index(out: Path, lessons: Sequence[Lesson], fast: bool) -> Path:
    """index.html: the lessons in course order, each linking its page and its notebook."""
    def row(lesson: Lesson) -> str:
        plan = f'<a href="{html.escape(lesson.lesson_page)}">lesson plan</a> · ' if lesson.lesson_page else ""
        return (
            f'  <li><a href="{html.escape(lesson.page)}">{html.escape(lesson.title)}</a>'
            f' <small>({plan}<a href="notebooks/{html.escape(lesson.notebook.name)}">.ipynb</a>)</small></li>'
        )

    rows = "\n".join(row(lesson) for lesson in lessons)
    mode = "fast (test) sizes" if fast else "full sizes"
    page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Language models from n-grams to Transformers</title>
<style>body {{ font-family: sans-serif; max-width: 46em; margin: 2em auto; line-height: 1.5; }}</style>
</head>
<body>
<h1>Language models from n-grams to Transformers</h1>
<p>The lessons, executed ({mode}) and exported with their figures and the last state of their
widgets. Read them here without running anything: what a widget computes in the browser (pointing
at a token, temperature, top-k and top-p, choosing a cell) works here too; controls that need a
running kernel are disabled and say so. Open a notebook in JupyterLab to use them and run the code.</p>
<ol class="lm-lessons">
{rows}
</ol>
</body>
</html>
"""
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _write_student_copy(shown: nbformat.NotebookNode, target: Path) -> None:
    """The page's notebook as students download it: the student edition, outputs cleared."""
    notebook = nbformat.from_dict(shown)
    notebook = nbformat.reads(nbformat.writes(notebook), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    notebook.metadata.pop("widgets", None)
    target.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")


def build_site(
    out: Path,
    notebooks: Iterable[Path] | None = None,
    fast: bool = False,
    timeout_s: int = 900,
    log=print,
    lessons_dir: Path = DEFAULT_LESSONS_DIR,
    chinese: bool = True,
) -> list[Lesson]:
    """Execute `notebooks` (default: all of notebooks/, in course order) and export the site into `out`,
    with the lesson plan of each notebook (lessons_dir/NN_name.md) when there is one, and the Chinese
    pages in out/zh/ for notebooks that have a Chinese edition (the English run's outputs, Chinese prose)."""
    paths = sorted(Path(p) for p in notebooks) if notebooks is not None else course_notebooks()
    if not paths:
        raise ValueError("no notebooks to build; pass notebook paths or check notebooks/")
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"notebook {path} does not exist")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    copy_vendor(out)
    (out / "notebooks").mkdir(exist_ok=True)
    pages = [path.with_suffix(".html").name for path in paths]
    lessons = []
    zh_out, zh_rows = out / LANG, []  # the Chinese pages, for notebooks that have notebooks/zh/<name>
    has_chinese = [chinese and chinese_notebook_path(path).is_file() for path in paths]
    contents = {"en": [(page, notebook_title(nbformat.read(path, as_version=4), path.stem))
                       for page, path in zip(pages, paths)],
                LANG: [(page, notebook_title(nbformat.read(chinese_notebook_path(path), as_version=4), path.stem))
                       for page, path, zh in zip(pages, paths, has_chinese) if zh]}
    searched = []  # the search index: one entry per page, both languages
    with tempfile.TemporaryDirectory(prefix="lm-site-") as tmp:
        workdir = Path(tmp)  # notebooks run in a scratch folder: whatever they write stays out of the repo
        for index, path in enumerate(paths):
            start = time.perf_counter()
            log(f"[{index + 1}/{len(paths)}] running {path.name} ({'fast' if fast else 'full'} mode)")
            executed = execute_notebook(path, workdir, fast=fast, timeout_s=timeout_s)
            previous_page = pages[index - 1] if index > 0 else None
            next_page = pages[index + 1] if index + 1 < len(paths) else None
            shown = student_page(nbformat.read(path, as_version=4), executed, path.name)  # no answers
            page = export_html(shown, previous_page, next_page, nav=site_nav(contents["en"], pages[index], "en", ""))
            searched.append({"url": pages[index], "title": contents["en"][index][1], "lang": "en",
                             "text": page_text(shown)})
            chinese_path = chinese_notebook_path(path)
            if has_chinese[index]:
                if not zh_rows:  # the first Chinese page: its folder, scripts and notebooks
                    copy_vendor(zh_out)
                    (zh_out / "notebooks").mkdir(exist_ok=True)
                chinese_shown = student_page(nbformat.read(chinese_path, as_version=4),
                                             chinese_version(executed, chinese_path), chinese_path.name)
                chinese_nav = site_nav(contents[LANG], pages[index], LANG, "../")
                (zh_out / pages[index]).write_text(
                    add_switch(export_html(chinese_shown, previous_page, next_page, lang="zh", nav=chinese_nav),
                               f"../{pages[index]}", "English"), encoding="utf-8")
                searched.append({"url": f"{LANG}/{pages[index]}", "title": notebook_title(chinese_shown, path.stem),
                                 "lang": LANG, "text": page_text(chinese_shown)})
                _write_student_copy(chinese_shown, zh_out / "notebooks" / path.name)
                zh_rows.append([notebook_title(chinese_shown, path.stem), pages[index], None, path.name])
                page = add_switch(page, f"zh/{pages[index]}", "中文")
            (out / pages[index]).write_text(page, encoding="utf-8")
            _write_student_copy(shown, out / "notebooks" / path.name)
            seconds = time.perf_counter() - start
            number = path.name[:2]
            lessons.append(Lesson(number, notebook_title(executed, path.stem), path, pages[index], seconds))
            log(f"    wrote {pages[index]} in {seconds:.1f} s")
    for lesson in lessons:
        plan = lesson_path(lesson.notebook.name, lessons_dir)
        if plan is not None:
            lesson.lesson_page = f"lesson_{plan.stem}.html"
            page = render_lesson(plan, set(pages))
            chinese_plan = lessons_dir / LANG / plan.name
            row = next((r for r in zh_rows if r[1] == lesson.page), None)
            if row is not None and chinese_plan.is_file():
                chinese_page = render_lesson(chinese_plan, set(pages)).replace(
                    '<html lang="en">', '<html lang="zh-Hans">').replace("&larr; All lessons", "&larr; 全部课程")
                (zh_out / lesson.lesson_page).write_text(
                    add_switch(chinese_page, f"../{lesson.lesson_page}", "English"), encoding="utf-8")
                row[2] = lesson.lesson_page
                page = add_switch(page, f"zh/{lesson.lesson_page}", "中文")
            (out / lesson.lesson_page).write_text(page, encoding="utf-8")
    write_search_assets(out, searched)
    index = write_index(out, lessons, fast)
    index.write_text(add_search(index.read_text(encoding="utf-8"), "en", ""), encoding="utf-8")
    if zh_rows:
        chinese_index = write_chinese_index(zh_out, [tuple(row) for row in zh_rows], fast)
        chinese_index.write_text(add_search(chinese_index.read_text(encoding="utf-8"), LANG, "../"), encoding="utf-8")
        index.write_text(add_switch(index.read_text(encoding="utf-8"), "zh/index.html", "中文"), encoding="utf-8")
        log(f"site: {zh_out / 'index.html'} ({len(zh_rows)} Chinese lessons)")
    log(f"site: {out / 'index.html'} ({len(lessons)} lessons)")
    return lessons
