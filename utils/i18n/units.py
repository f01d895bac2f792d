"""The translatable units of an English original: markdown cells by id, lesson blocks by text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Unit:
    """One piece of English to translate; `key` is the cell id (notebooks) or None (lessons)."""

    key: str | None
    text: str


def markdown_blocks(text: str) -> list[str]:
    """Split markdown into blocks at blank lines, keeping fenced code blocks whole."""
    blocks: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        if not line.strip() and not in_fence:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def notebook_units(path: Path) -> list[Unit]:
    """The markdown cells of a notebook, keyed by cell id (every cell must have an id)."""
    notebook = nbformat.read(path, as_version=4)
    units = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        if not cell.get("id"):
            raise ValueError(f"{path}: a markdown cell has no id; run nbformat's normalize and commit")
        units.append(Unit(cell.id, cell.source))
    return units


def lesson_units(path: Path) -> list[Unit]:
    """The blocks of a lesson file, in order (identical blocks appear once)."""
    seen: set[str] = set()
    units = []
    for block in markdown_blocks(path.read_text(encoding="utf-8")):
        if block not in seen:
            seen.add(block)
            units.append(Unit(None, block))
    return units
