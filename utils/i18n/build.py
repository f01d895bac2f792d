"""Build the Chinese notebooks and lessons from the English originals and their translation files."""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path

import nbformat

from utils.i18n.catalog import translation_table
from utils.i18n.layout import LANG, Source, readable_by_all, relative
from utils.i18n.units import markdown_blocks

GENERATED_NOTE = "<!-- 本文件由 {catalog} 生成，请勿直接编辑：python -m utils.i18n build -->"


def _write_atomically(path: Path, text: str) -> None:
    """Replace a file in one step, so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(text)
    readable_by_all(tmp)
    os.replace(tmp, path)


def built_notebook(source: Source) -> nbformat.NotebookNode:
    """The Chinese notebook: the English one with translated markdown (current translations only).

    Code cells are copied unchanged (ids, source, metadata, no outputs), so both editions run the
    same code; a markdown cell without a current translation stays English.
    """
    english = nbformat.read(source.english, as_version=4)
    table = translation_table(source)
    chinese = copy.deepcopy(english)
    for cell in chinese.cells:
        if cell.cell_type == "markdown" and cell.id in table and table[cell.id][0] == cell.source:
            cell.source = table[cell.id][1]
    chinese.metadata["language_info"] = chinese.metadata.get("language_info", {})
    chinese.metadata["lm_course"] = {"lang": LANG, "translated_from": f"../{source.english.name}",
                                     "translations": relative(source.catalog)}
    return chinese


def built_lesson(source: Source) -> str:
    """The Chinese lesson text: each English block replaced by its current translation."""
    table = translation_table(source)
    text = source.english.read_text(encoding="utf-8")
    blocks = [table[block][1] if block in table else block for block in markdown_blocks(text)]
    note = GENERATED_NOTE.format(catalog=relative(source.catalog))
    return note + "\n\n" + "\n\n".join(blocks) + "\n"


def rendered(source: Source) -> str:
    """The exact text `build` writes for a source."""
    if source.kind == "notebook":
        return nbformat.writes(built_notebook(source)) + "\n"
    return built_lesson(source)


def build(source: Source) -> Path:
    """Write the built Chinese file of one source and return its path."""
    _write_atomically(source.built, rendered(source))
    return source.built
