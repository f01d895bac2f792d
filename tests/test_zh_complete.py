"""The Chinese edition is Chinese: no English prose left (LaTeX's \\text included), lessons that point at the
Chinese notebooks, a glossary introduced in Chinese (issue 33, part 2)."""

import re

import pytest

from utils.i18n.layout import ROOT
from utils.i18n.leftover_english import allow_list, english_in_formulas, english_runs
from utils.i18n.terminology import chinese_texts, source_of

TEXTS = chinese_texts()
ALLOWED = allow_list(ROOT / "tests" / "fixtures" / "zh_english_allowed.txt")


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_no_english_prose(name):
    runs = english_runs(TEXTS[name], ALLOWED)
    formulas = english_in_formulas(TEXTS[name])
    assert not runs and not formulas, (
        f"English left in {name} (translate it in {source_of(name)}, or add a paper title to "
        f"tests/fixtures/zh_english_allowed.txt): {runs[:10] + formulas[:10]}")


def test_the_prose_check_finds_english_and_spares_code_quotes_names_and_titles():
    text = ("模型 keeps the form of a poem 很好。`it is not prose here` “the cat sat on the mat” "
            "见 https://example.org/a-page-with-many-words 和 [链接](../notebooks/the_long_file_name.ipynb)。"
            "A. Vaswani, N. Shazeer et al. (2017), *Attention Is All You Need*；*An empirical study of smoothing*\n"
            "```\nprint('this is all code here')\n```\n形状为 B, H, T, D/H。")
    assert english_runs(text) == ["keeps the form of a poem", "An empirical study of smoothing"]
    assert english_runs(text, frozenset({"an empirical study of smoothing techniques"})) == [
        "keeps the form of a poem"]
    assert english_runs("{name} 的 {value} 在 {where}，值为 {count}") == []


def test_the_formula_check_finds_text_in_english_and_spares_symbol_names():
    bad = r"$$\log p \quad \text{with nothing after } x_t \text{ in the input},\ a\ \text{or}\ b$$"
    assert english_in_formulas(bad) == [r"\text{with nothing after }", r"\text{ in the input}", r"\text{or}"]
    good = r"$d_\text{model},\ n_\text{layer},\ W_{\text{out}},\ \text{max\_norm},\ p(\text{cat}),\ \text{KV 头数}$"
    assert english_in_formulas(good) == []


@pytest.mark.parametrize("path", sorted((ROOT / "lessons" / "zh").glob("[0-9][0-9]_*.md")),
                         ids=lambda p: p.name)
def test_lesson_gives_the_slides_command_for_the_chinese_notebook(path):
    command = f"jupyter nbconvert --to slides --post serve notebooks/zh/{path.stem}.ipynb"
    text = path.read_text(encoding="utf-8")
    assert command in text, f"{path.name} should give `{command}`"
    assert (ROOT / "notebooks" / "zh" / f"{path.stem}.ipynb").exists()
    assert not re.search(r"--to slides[^`\n]*notebooks/[0-9]", text), "a slides command for the English notebook"


def test_glossary_introduction_is_in_chinese_and_current():
    intro = (ROOT / "lessons" / "glossary.md").read_text(encoding="utf-8").split("| English |", 1)[0]
    chinese = re.findall(r"[\u4e00-\u9fff]", intro)
    assert len(chinese) >= 100, "the glossary's introduction should be written in Chinese too"
    assert "notebooks are in English" not in intro and "notebooks/zh" in intro
    assert "北京大学信息科学技术学院《生成模型基础》" in intro and "test_terminology" in intro


def _zh_counterparts(link: str) -> set[str]:
    """Where README.zh.md may point instead of an English README link: the Chinese file when there is one."""
    mapped = {link}
    for english, chinese in (("student/", "student/zh/"), ("lessons/", "lessons/zh/"), ("README.md", "README.zh.md")):
        if link.startswith(english):
            mapped.add(chinese + link[len(english):])
    if link.endswith(".md"):
        mapped.add(link[:-3] + ".zh.md")
    if link == "README.zh.md":
        mapped.add("README.md")
    return mapped


def test_readme_zh_mirrors_the_english_readme():
    english = (ROOT / "README.md").read_text(encoding="utf-8")
    chinese = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    sections = [re.findall(r"^## ", text, re.MULTILINE) for text in (english, chinese)]
    assert len(sections[0]) == len(sections[1]), "one Chinese section for each English one"
    links = re.findall(r"\]\(([^)#\s][^)\s]*)\)", english)
    zh_links = set(re.findall(r"\]\(([^)\s]+)\)", chinese))
    missing = [link for link in links if not _zh_counterparts(link) & zh_links]
    assert not missing, f"README.zh.md lacks the English README's links (or their Chinese versions): {missing}"
    commands = set(re.findall(r"`(python -m [^`]+|pip install [^`]+)`", english))
    # the Chinese edition's versions of a command: --lang zh, --source notebooks/zh, zh/ folders
    plain = chinese
    for chinese_only, english_too in ((" --lang zh", ""), (" --source notebooks/zh", ""), ("/zh/", "/")):
        plain = plain.replace(chinese_only, english_too)
    missing = [c for c in commands if c not in chinese and c not in plain]
    assert not missing, f"README.zh.md lacks the English README's commands: {missing}"
    assert "北京大学信息科学技术学院《生成模型基础》，2025 年秋季学期（其中 Transformer 与自回归模型部分）" in chinese
