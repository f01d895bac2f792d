"""Translation files (gettext PO, via polib): bring them up to date with the English, and say what is left."""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import polib

from utils.i18n.layout import LANG, Source, readable_by_all, relative
from utils.i18n.units import Unit, lesson_units, notebook_units

FUZZY = "fuzzy"
SIMILAR_ENOUGH = 0.6  # a changed lesson block keeps its old translation (as fuzzy) above this similarity


def units_of(source: Source) -> list[Unit]:
    """The English units of a source."""
    return notebook_units(source.english) if source.kind == "notebook" else lesson_units(source.english)


def load_catalog(source: Source) -> polib.POFile:
    """The source's translation file, or an empty one with the course's header if none exists yet."""
    if source.catalog.exists():
        return polib.pofile(str(source.catalog), wrapwidth=0)
    catalog = polib.POFile(wrapwidth=0)
    catalog.metadata = {
        "Project-Id-Version": "lm-course",
        "Language": LANG,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source": relative(source.english),
    }
    return catalog


def save_catalog(catalog: polib.POFile, path: Path) -> None:
    """Write a translation file atomically (a crash never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        catalog.save(tmp)
        readable_by_all(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _mark_changed(entry: polib.POEntry, new_text: str) -> None:
    """The English under a translated entry changed: keep the old English beside it and flag it fuzzy."""
    if entry.msgstr and FUZZY not in entry.flags:
        entry.previous_msgid = entry.msgid
        entry.flags.append(FUZZY)
    entry.msgid = new_text


def sync_catalog(source: Source) -> polib.POFile:
    """Bring the translation file in line with the English: add new units, flag changed ones, drop gone ones."""
    old = load_catalog(source)
    new = load_catalog(source)
    del new[:]
    occurrence = source.english.name
    if source.kind == "notebook":
        by_key = {entry.msgctxt: entry for entry in old if not entry.obsolete}
        for unit in units_of(source):
            entry = by_key.get(unit.key) or polib.POEntry(msgctxt=unit.key, msgid=unit.text, msgstr="")
            if entry.msgid != unit.text:
                _mark_changed(entry, unit.text)
            entry.occurrences = [(occurrence, unit.key)]
            new.append(entry)
    else:
        entries = merge_by_text(old, [unit.text for unit in units_of(source)])
        for index, entry in enumerate(entries, start=1):
            entry.occurrences = [(occurrence, str(index))]
            new.append(entry)
    save_catalog(new, source.catalog)
    return new


def merge_by_text(old: polib.POFile, texts: list[str]) -> list[polib.POEntry]:
    """One entry per English text, in order: its own old entry if the text is unchanged, else the closest old
    entry whose text is gone (its translation kept, flagged fuzzy, the old English beside it), else a new one.

    Old entries matched by no text are left out: gone English loses its entry.
    """
    unused = {entry.msgid: entry for entry in old if not entry.obsolete and entry.msgid}
    exact = set(texts)
    entries = []
    for text in texts:
        entry = unused.pop(text, None)
        if entry is None:
            candidates = [known for known in unused if known not in exact]
            close = difflib.get_close_matches(text, candidates, n=1, cutoff=SIMILAR_ENOUGH)
            entry = unused.pop(close[0]) if close else polib.POEntry(msgid=text, msgstr="")
            if entry.msgid != text:
                _mark_changed(entry, text)
        entries.append(entry)
    return entries


@dataclass
class Status:
    """What a translation file lacks against the English: missing, stale (fuzzy) and unsynced units."""

    source: Source
    missing: list[str] = field(default_factory=list)  # keys (cell ids) or first lines of untranslated units
    stale: list[str] = field(default_factory=list)
    unsynced: list[str] = field(default_factory=list)  # English units with no entry at all: run sync

    @property
    def complete(self) -> bool:
        """True when every English unit has a current translation."""
        return not (self.missing or self.stale or self.unsynced)

    def lines(self) -> list[str]:
        """One line per problem, for the command line and for test failures."""
        name = self.source.english.name
        return ([f"{name}: untranslated {k}" for k in self.missing] + [f"{name}: stale {k}" for k in self.stale]
                + [f"{name}: not in the translation file (run sync) {k}" for k in self.unsynced])


def _label(unit: Unit, number: int) -> str:
    """A short label for a unit: its cell id, or a lesson block's number (as in `#:`) and first line."""
    return unit.key if unit.key is not None else f"block {number} {unit.text.splitlines()[0][:50]!r}"


def status_of(source: Source) -> Status:
    """Compare a translation file with the current English without changing anything."""
    status = Status(source)
    catalog = load_catalog(source)
    if source.kind == "notebook":
        entries = {entry.msgctxt: entry for entry in catalog if not entry.obsolete}
        lookup = lambda unit: entries.get(unit.key)  # noqa: E731
    else:
        entries = {entry.msgid: entry for entry in catalog if not entry.obsolete}
        lookup = lambda unit: entries.get(unit.text)  # noqa: E731
    for number, unit in enumerate(units_of(source), start=1):
        entry = lookup(unit)
        if entry is None:
            status.unsynced.append(_label(unit, number))
        elif entry.msgid != unit.text or FUZZY in entry.flags:
            status.stale.append(_label(unit, number))
        elif not entry.msgstr.strip():
            status.missing.append(_label(unit, number))
    return status


def translation_table(source: Source) -> dict:
    """Current translations: cell id -> Chinese for notebooks, English block -> Chinese for lessons."""
    table = {}
    for entry in load_catalog(source):
        if entry.obsolete or FUZZY in entry.flags or not entry.msgstr.strip():
            continue
        table[entry.msgctxt if source.kind == "notebook" else entry.msgid] = (entry.msgid, entry.msgstr)
    return table


def translate(source: Source, translations: dict[str, str]) -> list[str]:
    """Record translations and save: keys are cell ids (notebooks) or block numbers as in `#:` (lessons).

    A recorded translation is current: its fuzzy flag and previous English are cleared. Returns the
    keys that matched no entry (run `sync` first if the English gained units). Refuses (ValueError)
    to mark a stale entry current with its old Chinese unchanged.
    """
    catalog = sync_catalog(source)
    if source.kind == "notebook":
        entries = {entry.msgctxt: entry for entry in catalog}
    else:
        entries = {occurrence[1]: entry for entry in catalog for occurrence in entry.occurrences}
    unknown = []
    unchanged = [str(key) for key, chinese in translations.items() if str(key) in entries
                 and FUZZY in entries[str(key)].flags and entries[str(key)].msgstr == chinese]
    if unchanged:
        raise ValueError(f"{source.english.name}: {', '.join(unchanged)} are stale (their English changed) and the "
                         "translation given is the old one; translate the new English (the PO file keeps the "
                         "previous English as '#| msgid') instead of re-running an old script")
    for key, chinese in translations.items():
        entry = entries.get(str(key))
        if entry is None:
            unknown.append(str(key))
            continue
        entry.msgstr = chinese
        if FUZZY in entry.flags:
            entry.flags.remove(FUZZY)
        entry.previous_msgid = None
    save_catalog(catalog, source.catalog)
    return unknown
