"""The Chinese edition stays in step with the English: complete, current, same code, links that resolve.

Run `python -m utils.i18n all` after changing English prose: it rebuilds notebooks/zh and lessons/zh
and lists the units to (re)translate; these tests fail until none is left.
"""

import re
from pathlib import Path

import nbformat
import pytest

from utils.i18n.build import rendered
from utils.i18n.catalog import status_of
from utils.i18n.layout import LANG, ROOT, sources

SOURCES = sources()
NOTEBOOKS = [s for s in SOURCES if s.kind == "notebook"]
LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def _ids(items):
    return [s.english.name for s in items]


@pytest.mark.parametrize("source", SOURCES, ids=_ids(SOURCES))
def test_every_unit_has_a_current_translation(source):
    problems = status_of(source).lines()
    assert not problems, (f"{len(problems)} units of {source.english.name} are untranslated or stale "
                          "(run `python -m utils.i18n all` and translate them):\n" + "\n".join(problems[:20]))


@pytest.mark.parametrize("source", SOURCES, ids=_ids(SOURCES))
def test_built_file_is_current(source):
    assert source.built.exists(), f"{source.built} is missing: run `python -m utils.i18n build`"
    assert source.built.read_text(encoding="utf-8") == rendered(source), (
        f"{source.built.relative_to(ROOT)} differs from what its English original and translation file give "
        "(edited by hand, or not rebuilt): run `python -m utils.i18n build`")


@pytest.mark.parametrize("source", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_chinese_notebook_has_the_english_code_cells(source):
    if not source.built.exists():
        pytest.fail(f"{source.built} is missing: run `python -m utils.i18n build`")
    english = nbformat.read(source.english, as_version=4)
    chinese = nbformat.read(source.built, as_version=4)
    assert [(c.id, c.cell_type) for c in chinese.cells] == [(c.id, c.cell_type) for c in english.cells], (
        "cells were added, removed or reordered in the Chinese notebook")
    for en, zh in zip(english.cells, chinese.cells):
        assert zh.metadata == en.metadata, f"cell {en.id}: metadata differs"
        if en.cell_type == "code":
            assert zh.source == en.source, f"code cell {en.id} differs from the English one"


def test_no_orphan_chinese_files():
    expected = {s.built for s in SOURCES}
    built = set((ROOT / "notebooks" / LANG).glob("*.ipynb")) | set((ROOT / "lessons" / LANG).glob("*.md"))
    assert not built - expected, f"Chinese files without an English original: {sorted(built - expected)}"


def _relative_links(text: str) -> list[str]:
    links = [a or b for a, b in LINK.findall(text)]
    return [link.split("#")[0] for link in links
            if not re.match(r"[a-z]+:|#|mailto:", link) and link.split("#")[0]]


def _markdown_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", [s.built for s in SOURCES] + [ROOT / "README.zh.md"],
                         ids=[s.built.name for s in SOURCES] + ["README.zh.md"])
def test_relative_links_resolve(path):
    if not path.exists():
        pytest.fail(f"{path} is missing")
    broken = [link for link in _relative_links(_markdown_of(path)) if not (path.parent / link).exists()]
    assert not broken, f"{path.relative_to(ROOT)}: links to files that do not exist: {broken}"


def test_the_link_check_can_fail(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("[ok](page.md) [gone](../nope.ipynb) [web](https://example.org) <img src=\"x.png\">")
    assert [l for l in _relative_links(page.read_text()) if not (tmp_path / l).exists()] == ["../nope.ipynb", "x.png"]


def test_code_does_not_depend_on_the_working_directory():
    """With the same code cells and no cwd-relative paths, a notebook behaves the same from notebooks/zh/."""
    suspicious = re.compile(r"\.\./|open\(\s*['\"]|Path\(\s*['\"](?!/)|os\.getcwd|Path\.cwd|__file__")
    found = [f"{s.english.name}:{c.id}" for s in NOTEBOOKS
             for c in nbformat.read(s.english, as_version=4).cells
             if c.cell_type == "code" and suspicious.search(c.source)]
    assert not found, f"code cells that read paths relative to the notebook's folder: {found}"


def test_readme_zh_gives_the_same_three_commands():
    def commands(path: Path, heading: str) -> list[str]:
        text = path.read_text(encoding="utf-8")
        block = text.split(heading, 1)[1].split("```bash", 1)[1].split("```", 1)[0]
        return [line.split("#")[0].strip() for line in block.strip().splitlines()]

    english = commands(ROOT / "README.md", "## Three commands")
    # the Chinese README opens the Chinese edition
    assert commands(ROOT / "README.zh.md", "## 三条命令") == [
        c.replace("utils.student open", "utils.student open --lang zh") for c in english]


def test_a_chinese_notebook_converts_to_slides():
    from nbconvert import SlidesExporter

    from utils.i18n.build import built_notebook

    chinese = built_notebook(NOTEBOOKS[0])
    title = chinese.cells[0].source.splitlines()[0].lstrip("# ").strip()
    body, _ = SlidesExporter().from_notebook_node(chinese)
    assert "<section" in body and re.search(r"[\u4e00-\u9fff]", title) and title in body, (
        "the slides should carry the Chinese title cell")


ERRATA = {"ngram_nonparametric": "02", "residual_gradients": "07", "topk_renormalises": "09",
          "inference_cost_total": "10"}


@pytest.mark.parametrize("name", sorted(ERRATA))
def test_erratum_box_in_both_languages(name):
    """Where the course notes this collection follows are imprecise, a box in both editions says so."""
    (source,) = [s for s in NOTEBOOKS if s.english.name.startswith(ERRATA[name] + "_")]
    english = [c for c in nbformat.read(source.english, as_version=4).cells if c.metadata.get("erratum") == name]
    assert len(english) == 1, f"notebook {ERRATA[name]} needs one markdown cell with metadata erratum={name!r}"
    assert english[0].cell_type == "markdown" and english[0].source.startswith("> **Erratum · 勘误**")
    if not source.built.exists():
        pytest.fail(f"{source.built} is missing")
    chinese = {c.id: c for c in nbformat.read(source.built, as_version=4).cells}[english[0].id]
    assert chinese.source.startswith("> **勘误**"), f"the Chinese {name} box is not translated"
