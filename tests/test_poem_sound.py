"""utils.poem_sound: rhyme and tone of quatrains in modern readings (notebook 12's poem measures)."""

import math

import pytest

from utils.poem_sound import CLASS_OF_FINAL, RHYME_CLASSES, last_sound, line_ends, random_pair_rhyme, rhymes, sound_report

DENG = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"  # 登鹳雀楼: 流 liú and 楼 lóu rhyme, both level
XIANG = "红豆生南国，春来发几枝。愿君多采撷，此物最相思。"  # 相思: 枝 zhī and 思 sī rhyme (一七), both level
ODD = "白日依山尽，黄河入海去。欲穷千里目，更上一层楼。"  # 去 qù (oblique) does not rhyme with 楼


def test_every_final_has_one_class() -> None:
    finals = [f for group in RHYME_CLASSES.values() for f in group]
    assert len(finals) == len(set(finals)) == len(CLASS_OF_FINAL)
    assert len(RHYME_CLASSES) == 13


def test_line_ends_and_sounds() -> None:
    assert line_ends(DENG) == ["白日依山尽", "黄河入海流", "欲穷千里目", "更上一层楼"]
    assert last_sound("黄河入海流") == ("由求", "平")
    assert last_sound("白日依山尽") == ("人辰", "仄")
    assert rhymes("黄河入海流", "更上一层楼") and rhymes("春来发几枝", "此物最相思")
    assert not rhymes("黄河入海去", "更上一层楼")
    with pytest.raises(ValueError):
        line_ends("白日依山尽，黄河入海流。")


def test_sound_report_counts_quatrains_only() -> None:
    report = sound_report([DENG, XIANG, ODD, "not a poem"])
    assert report["n"] == 3
    assert math.isclose(report["rhyme"], 2 / 3)
    assert math.isclose(report["level_ends"], 2 / 3)  # 去 is oblique
    assert sound_report(["no"])["n"] == 0


def test_random_pairs_never_pair_a_poem_with_itself() -> None:
    # two poems that rhyme within themselves but not across: a self-pairing would count a rhyme
    assert random_pair_rhyme([DENG, XIANG], seed=0) == 0.0
    assert random_pair_rhyme([DENG, DENG, DENG], seed=3) == 1.0
    with pytest.raises(ValueError):
        random_pair_rhyme([DENG])
