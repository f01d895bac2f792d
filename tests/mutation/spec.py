"""The mutant format, loading tests/mutants/, and the static checks that need no kernel."""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
MUTANTS_DIR = ROOT / "tests" / "mutants"
COVERED_FILE = MUTANTS_DIR / "COVERED"
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of `old` by `new` in the source of code cell `cell`."""

    cell: str
    old: str
    new: str


@dataclass(frozen=True)
class Patch:
    """Run `code` in the kernel just before code cell `before` runs."""

    before: str
    code: str


@dataclass(frozen=True)
class Mutant:
    """A named change that removes one cause; the assert of show cell `target` must then fail with `message`."""

    name: str  # unique within its file, snake_case
    removes: str  # the cause it removes, in words
    target: str  # id of the show cell whose assert must fail
    message: str  # regex searched in the AssertionError's message
    edits: list[Edit] = field(default_factory=list)
    patches: list[Patch] = field(default_factory=list)
    skip: list[str] = field(default_factory=list)  # ids of cells not run (the target does not depend on them)


@dataclass(frozen=True)
class MutantFile:
    """One file of tests/mutants/: the notebook it mutates and its mutants."""

    path: Path
    notebook: str  # file name inside notebooks/
    mutants: list[Mutant]

    @property
    def notebook_path(self) -> Path:
        """Where the notebook lies."""
        return NOTEBOOKS / self.notebook


def load_mutant_file(path: Path) -> MutantFile:
    """Import one mutant file (a module defining NOTEBOOK and MUTANTS) without needing it on sys.path."""
    spec = importlib.util.spec_from_file_location(f"mutants_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    notebook, mutants = getattr(module, "NOTEBOOK", None), getattr(module, "MUTANTS", None)
    if not isinstance(notebook, str) or not isinstance(mutants, list):
        raise ValueError(f"{path} must define NOTEBOOK (a notebook file name) and MUTANTS (a list of Mutant)")
    bad = [m for m in mutants if not isinstance(m, Mutant)]
    if bad:
        raise ValueError(f"{path}: MUTANTS holds {len(bad)} item(s) that are not Mutant, e.g. {bad[0]!r}")
    return MutantFile(path, notebook, mutants)


def mutant_files(directory: Path = MUTANTS_DIR) -> list[MutantFile]:
    """Every m*.py file of the mutants folder, in name order."""
    return [load_mutant_file(p) for p in sorted(directory.glob("m*.py"))]


def covered_notebooks(path: Path = COVERED_FILE) -> list[str]:
    """Notebook file names listed in COVERED (one a line, `#` starts a comment)."""
    names = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [name for name in names if name]


def read_cells(notebook_path: Path) -> dict[str, nbformat.NotebookNode]:
    """The notebook's cells by id."""
    return {cell.id: cell for cell in nbformat.read(notebook_path, as_version=4).cells}


def show_cells(notebook_path: Path) -> dict[str, str]:
    """Show name by cell id, for every code cell with metadata "show"."""
    return {
        cell_id: cell.metadata["show"]
        for cell_id, cell in read_cells(notebook_path).items()
        if cell.cell_type == "code" and "show" in cell.metadata
    }


def mutant_problems(notebook_path: Path, mutants: list[Mutant]) -> list[str]:
    """What is wrong with these mutants of this notebook, found without running it (empty: nothing)."""
    if not notebook_path.is_file():
        return [f"notebook {notebook_path.name} does not exist"]
    cells = read_cells(notebook_path)
    order = list(cells)
    problems: list[str] = []
    seen: set[str] = set()
    for m in mutants:
        where = f"mutant {m.name!r}"
        if not NAME.match(m.name):
            problems.append(f"{where}: name must be snake_case")
        if m.name in seen:
            problems.append(f"{where}: name used twice in the file")
        seen.add(m.name)
        if not m.removes.strip():
            problems.append(f"{where}: `removes` must say which cause it removes")
        try:
            if not m.message.strip():
                problems.append(f"{where}: `message` must not be empty (it would match any message)")
            re.compile(m.message)
        except re.error as error:
            problems.append(f"{where}: `message` is not a valid regex ({error})")
        if not m.edits and not m.patches:
            problems.append(f"{where}: no edit and no patch: it changes nothing")
        target = cells.get(m.target)
        if target is None:
            problems.append(f"{where}: target cell {m.target!r} does not exist")
            continue
        if target.cell_type != "code" or "show" not in target.metadata:
            problems.append(f"{where}: target cell {m.target!r} is not a show cell (code cell with metadata 'show')")
        end = order.index(m.target)

        def check_cell(cell_id: str, role: str, after_ok: bool = False) -> bool:
            """True when cell_id names a code cell that runs no later than the target (or later, if after_ok)."""
            cell = cells.get(cell_id)
            if cell is None:
                problems.append(f"{where}: {role} cell {cell_id!r} does not exist")
                return False
            if cell.cell_type != "code":
                problems.append(f"{where}: {role} cell {cell_id!r} is not a code cell")
                return False
            if order.index(cell_id) > end and not after_ok:
                problems.append(f"{where}: {role} cell {cell_id!r} comes after the target, so the change never runs")
                return False
            return True

        for cell_id in m.skip:  # a skip list may be shared by several mutants: cells after the target are allowed
            if check_cell(cell_id, "skipped", after_ok=True) and cell_id == m.target:
                problems.append(f"{where}: the target cell cannot be skipped")
        for edit in m.edits:
            if check_cell(edit.cell, "edited"):
                if edit.cell in m.skip:
                    problems.append(f"{where}: edited cell {edit.cell!r} is skipped")
                count = cells[edit.cell].source.count(edit.old) if edit.old else 0
                if count != 1:
                    problems.append(f"{where}: `old` {edit.old!r} occurs {count} times in cell {edit.cell!r} (must be once)")
                elif edit.old == edit.new:
                    problems.append(f"{where}: edit of cell {edit.cell!r} replaces {edit.old!r} by itself")
        for patch in m.patches:
            if check_cell(patch.before, "patched") and patch.before in m.skip:
                problems.append(f"{where}: patch runs before cell {patch.before!r}, which is skipped")
            try:
                compile(patch.code, f"<patch of {m.name}>", "exec")
            except SyntaxError as error:
                problems.append(f"{where}: patch before {patch.before!r} is not valid Python ({error.msg})")
    return problems


def coverage_problems(notebook_path: Path, mutants: list[Mutant]) -> list[str]:
    """Show cells of the notebook that no mutant targets, and show cells without a name."""
    targeted = {m.target for m in mutants}
    shows = show_cells(notebook_path)
    problems = [] if shows else [f"{notebook_path.name} has no show cell (code cell with metadata 'show')"]
    names = list(shows.values())
    for cell_id, show in shows.items():
        if not isinstance(show, str) or not NAME.match(show):
            problems.append(f"cell {cell_id}: metadata 'show' must be a snake_case name, got {show!r}")
        elif names.count(show) > 1:
            problems.append(f"cell {cell_id}: show name {show!r} is used by {names.count(show)} cells")
        if cell_id not in targeted:
            problems.append(f"show {show!r} (cell {cell_id}) of {notebook_path.name} has no mutant")
    return problems
