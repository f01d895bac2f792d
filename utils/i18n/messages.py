"""The code's own catalog: every `tr("...")` and `mark("...")` literal of utils/ and the notebooks, in messages/zh.po.

`sync_messages()` (command line: `python -m utils.i18n messages`) collects the literals from the
Python files under utils/ and the code cells of the English notebooks (the Chinese notebooks
share their code cells), then brings the catalog in line: new strings get an empty entry, a
string whose English changed keeps its old translation flagged fuzzy with the old English beside
it (catalog.merge_by_text, as for lessons), and strings gone from the code are dropped. A
`tr(f"...")`, or a `tr()` whose first argument is built at run time from pieces, is reported as a
problem: the English with its `{fields}` must be written out for the catalog to find it.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import polib

from utils.i18n.catalog import FUZZY, merge_by_text, save_catalog
from utils.i18n.layout import LANG, ROOT, relative
from utils.i18n.text import MESSAGES_DIR

MESSAGE_CALLS = ("tr", "mark")  # utils.i18n.text: translate now / mark for later
HEADER = {
    "Project-Id-Version": "lm-course",
    "Language": LANG,
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}
HEADER_COMMENT = ("What the course's code prints and draws, in Chinese (utils.i18n.text.tr).\n"
                  "Written by `python -m utils.i18n messages` from the tr(\"...\") and mark(\"...\") literals of utils/ and\n"
                  "the notebooks; fill in msgstr (keep each {field} as it is) and remove the fuzzy flag once a changed\n"
                  "string's Chinese is right again. Translator comments (# ...) are kept.")


@dataclass
class Collected:
    """The message literals found, in source order, with where each occurs; and the calls that cannot be read."""

    places: dict[str, list[str]] = field(default_factory=dict)  # English -> ["utils/x.py", "notebooks/y.ipynb:cell"]
    problems: list[str] = field(default_factory=list)

    def add(self, text: str, where: str) -> None:
        """Record one occurrence (each place once per message)."""
        places = self.places.setdefault(text, [])
        if where not in places:
            places.append(where)


def _call_name(node: ast.Call) -> str | None:
    """'tr' for tr(...) and text.tr(...), likewise 'mark'; None for any other call."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return name if name in MESSAGE_CALLS else None


def python_messages(source: str, where: str, found: Collected) -> None:
    """Add the message literals of one piece of Python source to `found` (problems too)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        found.problems.append(f"{where}: cannot parse ({error.msg}, line {error.lineno}): its messages were not read")
        return
    calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call) and _call_name(node)),
                   key=lambda node: (node.lineno, node.col_offset))
    for node in calls:
        name, argument = _call_name(node), node.args[0] if node.args else None
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            found.add(argument.value, where)
        elif isinstance(argument, ast.JoinedStr) or (name == "mark" and argument is not None) \
                or isinstance(argument, ast.BinOp):
            found.problems.append(f"{where}, line {node.lineno}: {name}() needs the English written out as one "
                                  f"string literal with {{fields}}, e.g. {name}(\"loss after {{n}} steps\", n=n); "
                                  f"got {ast.unparse(argument)[:60]}")
        # tr(label) with a name: the label is a mark("...") literal collected where it is defined


def notebook_code(path: Path) -> Iterator[tuple[str, str]]:
    """(cell id, Python source) of each code cell, IPython magics turned into Python."""
    from IPython.core.inputtransformer2 import TransformerManager

    transformer = TransformerManager()
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            yield cell.get("id") or f"cell{index}", transformer.transform_cell(cell.source)


def message_sources(root: Path = ROOT) -> tuple[list[Path], list[Path]]:
    """The Python files of utils/ and the English notebooks whose messages the catalog holds."""
    python = sorted(path for path in (root / "utils").rglob("*.py") if "vendor" not in path.parts)
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    return python, notebooks


def collect(root: Path = ROOT) -> Collected:
    """Every message literal of utils/ and the English notebooks, in source order."""
    found = Collected()
    python, notebooks = message_sources(root)
    for path in python:
        python_messages(path.read_text(encoding="utf-8"), path.relative_to(root).as_posix(), found)
    for path in notebooks:
        for cell_id, source in notebook_code(path):
            python_messages(source, f"{path.relative_to(root).as_posix()}:{cell_id}", found)
    return found


def catalog_path(root: Path = ROOT) -> Path:
    """Where the code's catalog for the course language lives (utils.i18n.text reads it)."""
    return root / MESSAGES_DIR.relative_to(ROOT) / f"{LANG}.po"


def load_messages(path: Path) -> polib.POFile:
    """The code's catalog, or an empty one with the course's header."""
    if path.exists():
        return polib.pofile(str(path), wrapwidth=0)
    catalog = polib.POFile(wrapwidth=0)
    catalog.header, catalog.metadata = HEADER_COMMENT, dict(HEADER)
    return catalog


def sync_messages(root: Path = ROOT) -> tuple[polib.POFile, list[str]]:
    """Bring the code's catalog in line with the code; return it and the problems found while reading the code."""
    found = collect(root)
    path = catalog_path(root)
    old = load_messages(path)
    new = load_messages(path)
    del new[:]
    new.header = HEADER_COMMENT
    for entry in merge_by_text(old, list(found.places)):
        entry.occurrences = [(where, "") for where in found.places[entry.msgid]]
        if "{" in entry.msgid and "python-brace-format" not in entry.flags:
            entry.flags.append("python-brace-format")
        new.append(entry)
    save_catalog(new, path)
    return new, found.problems


def fields_of(text: str) -> list[tuple[str, str, str]]:
    """The `{field!conversion:spec}` parts of a str.format template, sorted; ValueError if it does not parse."""
    return sorted((name, conversion or "", spec or "") for _, name, spec, conversion in string.Formatter().parse(text)
                  if name is not None)


@dataclass
class MessagesStatus:
    """How much of the code's catalog is translated, against the code as it is now."""

    total: int = 0
    untranslated: list[str] = field(default_factory=list)
    fuzzy: list[str] = field(default_factory=list)
    unsynced: list[str] = field(default_factory=list)  # in the code, not in the catalog: run `messages`
    bad_fields: list[str] = field(default_factory=list)  # the Chinese's {fields} differ from the English's
    gone: list[str] = field(default_factory=list)  # in the catalog, no longer in the code: run `messages`
    problems: list[str] = field(default_factory=list)  # tr() calls the catalog cannot read

    def lines(self) -> list[str]:
        """One line per problem, for the command line and for test failures."""
        name = relative(catalog_path())
        return ([f"{name}: untranslated {text!r}" for text in self.untranslated]
                + [f"{name}: fuzzy (the English changed) {text!r}" for text in self.fuzzy]
                + [f"{name}: not in the catalog (run python -m utils.i18n messages) {text!r}" for text in self.unsynced]
                + [f"{name}: the Chinese's {{fields}} differ from the English's {text!r}" for text in self.bad_fields]
                + [f"{name}: no longer in the code (run python -m utils.i18n messages) {text!r}" for text in self.gone]
                + self.problems)

    def summary(self) -> str:
        """One line of counts."""
        translated = self.total - len(self.untranslated) - len(self.fuzzy) - len(self.unsynced)
        return (f"code messages: {translated} of {self.total} translated, {len(self.untranslated)} untranslated, "
                f"{len(self.fuzzy)} fuzzy, {len(self.unsynced)} not in the catalog, "
                f"{len(self.bad_fields)} with wrong fields, {len(self.gone)} no longer in the code, "
                f"{len(self.problems)} unreadable calls")


def translation_fields_ok(english: str, translation: str) -> bool:
    """True when the translation has exactly the English's {fields} (names, conversions and format specs)."""
    try:
        return fields_of(english) == fields_of(translation)
    except ValueError:
        return False


def messages_status(root: Path = ROOT) -> MessagesStatus:
    """Compare the code's catalog with the code without changing anything."""
    found = collect(root)
    entries = {entry.msgid: entry for entry in load_messages(catalog_path(root)) if not entry.obsolete}
    status = MessagesStatus(total=len(found.places), problems=list(found.problems))
    for text in found.places:
        entry = entries.get(text)
        if entry is None:
            status.unsynced.append(text)
        elif FUZZY in entry.flags:
            status.fuzzy.append(text)
        elif not entry.msgstr.strip():
            status.untranslated.append(text)
        elif not translation_fields_ok(text, entry.msgstr):
            status.bad_fields.append(text)
    status.gone = [text for text in entries if text not in found.places]
    return status
