"""Rhyme and tone of five-character quatrains, read in modern Mandarin (pypinyin): a proxy for the Tang sounds.

Rhyme: two lines rhyme when the finals of their last characters fall in the same class of the
十三辙 (the thirteen rhyme classes of northern folk verse and Peking opera, a grouping of modern
finals; written out below). Tone: a character is level (平) when its modern tone is 1 or 2 and
oblique (仄) when it is 3 or 4. Both are modern readings: the Tang poets rhymed by the rhyme
groups of their time (later codified as 平水韵), and the entering tone (入声) of Middle Chinese has
vanished from Mandarin, its characters now spread over all four tones, so some Tang oblique
characters read as level today and some rhymes no longer sound like rhymes. The training poems
are the check that the proxy still works: their lines 2 and 4 should rhyme far more often than
line ends drawn from different poems.
"""

from __future__ import annotations

import random
from typing import Callable

from utils.tang import LINE_LENGTH, LINES, is_quatrain

# 十三辙: rhyme class -> the modern finals (pypinyin's strict finals, ü written v) it groups
RHYME_CLASSES = {
    "发花": ("a", "ia", "ua"),
    "梭波": ("o", "uo", "e", "io"),
    "乜斜": ("ie", "ve", "ê"),
    "一七": ("i", "v", "er"),
    "姑苏": ("u",),
    "怀来": ("ai", "uai"),
    "灰堆": ("ei", "uei"),
    "遥条": ("ao", "iao"),
    "由求": ("ou", "iou"),
    "言前": ("an", "ian", "uan", "van"),
    "人辰": ("en", "in", "uen", "vn"),
    "江阳": ("ang", "iang", "uang"),
    "中东": ("eng", "ing", "ueng", "ong", "iong"),
}
CLASS_OF_FINAL = {final: name for name, finals in RHYME_CLASSES.items() for final in finals}


def _readings(line: str) -> list[str]:
    """pypinyin's finals with tone digits (strict, ü as v, neutral tone 5) of every character of `line`."""
    from pypinyin import Style, lazy_pinyin  # imported here: only the poem measures need it

    return lazy_pinyin(line, style=Style.FINALS_TONE3, strict=True, neutral_tone_with_five=True)


def line_ends(poem: str) -> list[str]:
    """The lines of a quatrain without punctuation: '白日依山尽，黄河入海流。...' -> ['白日依山尽', '黄河入海流', ...]."""
    if not is_quatrain(poem):
        raise ValueError(f"not a five-character quatrain: {poem!r}")
    return [poem[k * (LINE_LENGTH + 1) : k * (LINE_LENGTH + 1) + LINE_LENGTH] for k in range(LINES)]


def last_sound(line: str, position: int = -1) -> tuple[str | None, str | None]:
    """(rhyme class, tone: '平', '仄' or None) of the character at `position` of `line`, read in the line's context."""
    reading = _readings(line)[position]  # e.g. 'iou2'
    tone = reading[-1] if reading[-1].isdigit() else None
    final = reading.rstrip("012345")
    level = {"1": "平", "2": "平", "3": "仄", "4": "仄"}.get(tone) if tone else None
    return CLASS_OF_FINAL.get(final), level


def rhymes(line_a: str, line_b: str) -> bool:
    """True when the last characters of the two lines fall in the same 十三辙 class (modern readings)."""
    a, b = last_sound(line_a)[0], last_sound(line_b)[0]
    return a is not None and a == b


def sound_report(poems: list[str]) -> dict[str, float]:
    """Over the quatrains among `poems`: how many, share whose lines 2 and 4 rhyme, share with both ends level.

    'level_ends': the last characters of lines 2 and 4 are both level (平); 'level_first': the
    first characters of lines 2 and 4 are both level, the control (a place the form leaves free).
    """
    kept = [line_ends(p) for p in poems if is_quatrain(p)]
    if not kept:
        return {"n": 0, "rhyme": float("nan"), "level_ends": float("nan"), "level_first": float("nan")}
    rhyme = level_ends = level_first = 0
    for lines in kept:
        second, fourth = lines[1], lines[3]
        rhyme += rhymes(second, fourth)
        level_ends += last_sound(second)[1] == "平" and last_sound(fourth)[1] == "平"
        level_first += last_sound(second, 0)[1] == "平" and last_sound(fourth, 0)[1] == "平"
    n = len(kept)
    return {"n": n, "rhyme": rhyme / n, "level_ends": level_ends / n, "level_first": level_first / n}


def random_pair_rhyme(poems: list[str], seed: int = 0, rhyme: Callable[[str, str], bool] | None = None) -> float:
    """Share of pairs (line 2 of one quatrain, line 4 of another) that rhyme: the control with the poet removed.

    `rhyme` judges two lines (default: `rhymes`, the modern 十三辙 reading; utils.pingshui.rhymes for the 平水韵).
    """
    rhyme = rhyme or rhymes
    kept = [line_ends(p) for p in poems if is_quatrain(p)]
    if len(kept) < 2:
        raise ValueError("random pairing needs at least two quatrains")
    order = list(range(len(kept)))
    random.Random(seed).shuffle(order)
    partner = {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}  # a cycle: never a poem with itself
    return sum(rhyme(kept[i][1], kept[partner[i]][3]) for i in range(len(kept))) / len(kept)


__all__ = ["RHYME_CLASSES", "CLASS_OF_FINAL", "line_ends", "last_sound", "rhymes", "sound_report", "random_pair_rhyme"]
