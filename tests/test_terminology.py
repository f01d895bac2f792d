"""Every Chinese file uses the one term the glossary's 统一用词 table gives (issue 33, part 2)."""

import re

import pytest

from utils.i18n.terminology import Rule, chinese_texts, findings, rules, source_of
from tests.test_glossary import rows

RULES = rules()
TEXTS = chinese_texts()


def test_the_table_was_read():
    english = {rule.english for rule in RULES}
    assert len(RULES) >= 10 and {"hidden state", "widget", "copy failure", "unembedding"} <= english
    form = next(rule for rule in RULES if rule.english.startswith("form"))
    assert form.use == ("体式",) and form.avoid == ("格律",) and set(form.unless) == {"平仄", "押韵", "对仗"}


def test_every_kind_of_chinese_file_is_scanned():
    kinds = {name.split("/")[0] for name in TEXTS}
    assert {"notebooks", "student", "lessons", "README.zh.md", "utils"} <= kinds
    assert sum(name.startswith("notebooks/zh/") for name in TEXTS) >= 12
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in TEXTS.values()), "every file read is Chinese"


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_file_uses_the_glossary_terms(name):
    found = findings(TEXTS[name], name, RULES)
    assert not found, (f"{len(found)} variants the glossary rules out (edit {source_of(name)}, "
                       "then `python -m utils.i18n all`):\n" + "\n".join(map(str, found[:15])))


def test_glossary_table_agrees_with_the_terms():
    def key(english: str) -> str:
        return re.sub(r"\s*\(.*?\)", "", english).strip().lower()

    table = {key(row["en"]): row["zh"] for row in rows()}
    assert sum(key(rule.english) in table for rule in RULES) >= 6, "the two tables name the same concepts"
    for rule in RULES:
        zh = table.get(key(rule.english))
        if zh is None:
            continue
        assert any(term in zh for term in rule.use), f"glossary row {rule.english!r} should give {rule.use}"
        assert not findings(zh, "glossary", [rule]), f"glossary row {rule.english!r} gives a variant: {zh}"


def test_the_check_finds_variants_and_respects_terms_and_exceptions():
    widget = Rule("widget", ("交互控件",), ("小部件", "控件"), ())
    form = Rule("form", ("体式",), ("格律",), ("平仄", "押韵", "对仗"))
    text = "打开交互控件。拖动小部件；守住了格律。格律指平仄和押韵\n控件坏了"
    found = [(f.variant, f.sentence) for f in findings(text, "t", [widget, form])]
    assert found == [("小部件", "拖动小部件"), ("格律", "守住了格律"), ("控件", "控件坏了")]
    assert str(findings("守住格律", "x.md", [form])[0]).startswith("x.md: '格律' (use 体式")


def test_findings_in_built_files_point_at_the_translation_file():
    assert source_of("notebooks/zh/08_masks_copy_failure.ipynb") == "translations/zh/notebooks/08_masks_copy_failure.po"
    assert source_of("student/zh/12_tang_poems.ipynb") == "translations/zh/notebooks/12_tang_poems.po"
    assert source_of("lessons/zh/README.md") == "translations/zh/lessons/README.po"
    assert source_of("README.zh.md") == "README.zh.md"
