"""One Chinese term per concept: the glossary's "统一用词" table, and where a Chinese text strays from it.

The table (in lessons/glossary.md) has one row per concept: the English, the term to use, the
variants that are out, and exception words. A text is checked sentence by sentence: the terms to use
are removed first (so that 控件 is out but 交互控件 is fine), then each variant is looked for; a
sentence that names one of the row's exception words may keep the variant (格律 next to 平仄).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import polib

from utils.i18n.layout import LANG, ROOT

GLOSSARY = ROOT / "lessons" / "glossary.md"
HEADING = "## 统一用词"
SENTENCE_END = re.compile(r"[。！？；\n]")
ITEM = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Rule:
    """One concept: its English, the Chinese to use, the variants that are out, and exception words."""

    english: str
    use: tuple[str, ...]
    avoid: tuple[str, ...]
    unless: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    """A variant found in a text: where, which, and the sentence around it."""

    where: str
    variant: str
    rule: Rule
    sentence: str

    def __str__(self) -> str:
        return (f"{self.where}: {self.variant!r} (use {' / '.join(self.rule.use)} for {self.rule.english!r}) "
                f"in “{self.sentence.strip()[:80]}”")


def rules(glossary: Path = GLOSSARY) -> list[Rule]:
    """The rows of the glossary's 统一用词 table."""
    text = glossary.read_text(encoding="utf-8")
    if HEADING not in text:
        raise ValueError(f"{glossary} has no section {HEADING!r}")
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    found = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if len(cells) != 5 or cells[0] in ("English", "---") or set(cells[0]) <= {"-", "|"}:
            continue
        use, avoid, unless = (tuple(ITEM.findall(cell)) for cell in cells[1:4])
        if not use or not avoid:
            raise ValueError(f"glossary row {cells[0]!r}: the term to use and the variants go in `backticks`")
        found.append(Rule(cells[0], use, avoid, unless))
    return found


def findings(text: str, where: str, table: list[Rule]) -> list[Finding]:
    """Every variant of the table in a text, sentence by sentence."""
    found = []
    for sentence in SENTENCE_END.split(text.replace("**", "")):  # **一元**模型 is 一元模型
        for rule in table:
            if any(word in sentence for word in rule.unless):
                continue
            rest = sentence
            for term in rule.use:
                rest = rest.replace(term, "\0")
            found += [Finding(where, variant, rule, sentence) for variant in rule.avoid if variant in rest]
    return found


def chinese_texts(root: Path = ROOT) -> dict[str, str]:
    """Every Chinese file a reader sees, as text: built notebooks and lessons, READMEs, docs, code messages."""
    texts = {}
    for folder in (root / "notebooks" / LANG, root / "student" / LANG):
        for path in sorted(folder.glob("*.ipynb")):
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            texts[path.relative_to(root).as_posix()] = "\n".join(
                "".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    paths = sorted((root / "lessons" / LANG).glob("*.md")) + sorted(root.glob("*.zh.md"))
    paths += sorted((root / "docs").glob("*.zh.md"))
    texts.update({p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in paths})
    messages = root / "utils" / "i18n" / "messages" / f"{LANG}.po"
    texts[messages.relative_to(root).as_posix()] = "\n".join(
        e.msgstr for e in polib.pofile(str(messages)) if not e.obsolete)
    return texts


def source_of(where: str) -> str:
    """The file to edit for a finding in a built file: its translation file."""
    match = re.fullmatch(r"(notebooks|student|lessons)/zh/(.+)\.(ipynb|md)", where)
    if not match:
        return where
    kind = "lessons" if match[1] == "lessons" else "notebooks"
    return f"translations/{LANG}/{kind}/{match[2]}.po"
