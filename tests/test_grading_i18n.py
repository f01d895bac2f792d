"""The grader speaks the student's language: a submission of the Chinese edition gets its feedback in Chinese.

Every string the grader words goes through `tr()`, and utils/i18n/messages/zh.po translates each one
(with the same `{fields}`). Grading runs in the bubblewrap sandbox where it works here, else with
`--sandbox off`; this file is about the language of the feedback, not about the sandbox.
"""

from __future__ import annotations

import ast
import copy
import csv
import re
from pathlib import Path

import nbformat
import pytest

from utils.grading import bwrap
from utils.grading.__main__ import main as cli
from utils.grading.notebook import grade_id
from utils.i18n.text import catalog, in_language, tr

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "fixtures" / "grading" / "source" / "assignment.ipynb"
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"
ZH_HEADINGS = {"### Exercise 1 (2 points): softmax with temperature": "### 练习 1（2 分）：带温度的 softmax",
               "### Exercise 2 (3 points): keep the top k": "### 练习 2（3 分）：保留最大的 k 个",
               "### Exercise 3 (1 point): the perplexity of a uniform model": "### 练习 3（1 分）：均匀模型的困惑度"}


def _grader_messages() -> list[str]:
    """The literal first arguments of every tr() call in utils/grading."""
    found = []
    for path in sorted((ROOT / "utils" / "grading").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tr" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(node.args[0].value)
    return sorted(set(found))


def test_every_grader_message_has_a_chinese_translation_with_the_same_fields() -> None:
    messages, chinese = _grader_messages(), catalog("zh")
    assert len(messages) > 50, "the grader words its messages through tr()"
    missing = [m for m in messages if m not in chinese]
    assert not missing, f"add these to utils/i18n/messages/zh.po: {missing}"
    fields = re.compile(r"\{(\w*)\}")
    for message in messages:
        assert sorted(fields.findall(chinese[message])) == sorted(fields.findall(message)), message


def test_in_language_wins_over_the_environment_and_is_local(monkeypatch) -> None:
    monkeypatch.setenv("LM_LANG", "en")
    with in_language("zh"):
        assert tr("passed") == "通过"
    assert tr("passed") == "passed"
    with pytest.raises(ValueError, match="not a course language"):
        with in_language("fr"):
            pass


def _chinese(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The fixture as the Chinese edition ships it: Chinese headings, the zh language in its metadata."""
    zh = copy.deepcopy(nb)
    for cell in zh.cells:
        if cell.cell_type == "markdown":
            for english, chinese in ZH_HEADINGS.items():
                cell.source = cell.source.replace(english, chinese)
    zh.metadata["lm_course"] = {"lang": "zh"}
    return zh


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict:
    """wen hands in the Chinese edition (exercise 1 delegated, 2 wrong); ada the English one; graded once each way."""
    root = tmp_path_factory.mktemp("i18n")
    sources = root / "sources"
    (sources / "zh").mkdir(parents=True)
    english = nbformat.read(SOURCE, as_version=4)
    nbformat.write(english, sources / SOURCE.name)
    nbformat.write(_chinese(english), sources / "zh" / SOURCE.name)  # lends its titles to Chinese feedback
    wen = _chinese(english)
    for cell in wen.cells:
        if grade_id(cell) == "ex1_temperature_softmax":
            cell.source = ("from utils.sampling import softmax_with_temperature\n"
                           "def temperature_softmax(logits, T):\n    return softmax_with_temperature(logits, T)")
        elif grade_id(cell) == "ex2_keep_top_k":
            cell.source = "def keep_top_k(logits, k):\n    return logits"
    for student, nb in {"wen": wen, "ada": english}.items():
        (root / "subs" / student).mkdir(parents=True)
        nbformat.write(nb, root / "subs" / student / SOURCE.name)
    results = {}
    for run, extra in {"auto": [], "forced": ["--lang", "zh"]}.items():
        out = root / f"out-{run}"
        assert cli(["grade", str(root / "subs"), "--source", str(sources), "--out", str(out), "--sandbox", SANDBOX,
                    *extra]) == 0
        with open(out / "grades.csv", newline="", encoding="utf-8") as file:
            rows = {(r["student"], r["grade_id"]): r for r in csv.DictReader(file)}
        results[run] = (rows, {s: (out / "feedback" / f"{s}.md").read_text(encoding="utf-8") for s in ("wen", "ada")})
    return results


def test_the_chinese_edition_gets_chinese_feedback(graded) -> None:
    rows, feedback = graded["auto"]
    assert rows[("wen", "ex1_temperature_softmax_test")]["feedback"] == (
        "未通过：练习 1（带温度的 softmax）要求你自己编写这部分代码；temperature_softmax 调用了 "
        "utils.sampling.softmax_with_temperature，因此得 0 分（在运行测试时）")
    assert rows[("wen", "ex2_keep_top_k_test")]["feedback"].startswith("未通过：CheckFailed: ")
    assert rows[("wen", "ex3_uniform_perplexity_test")]["feedback"] == "通过"
    assert {rows[("wen", gid)]["lang"] for gid in ("ex1_temperature_softmax_test", "ex2_keep_top_k_test")} == {"zh"}
    assert feedback["wen"].startswith("# wen 的反馈\n\n## assignment.ipynb：1 / 6 分\n\n| 练习 | 得分 | 反馈 |")
    assert feedback["wen"].rstrip().endswith("**总分：1 / 6 分**")


def test_the_english_edition_stays_english_unless_told(graded) -> None:
    rows, feedback = graded["auto"]
    assert {rows[("ada", gid)]["feedback"] for gid in ("ex1_temperature_softmax_test", "ex2_keep_top_k_test",
                                                        "ex3_uniform_perplexity_test")} == {"passed"}
    assert feedback["ada"].startswith("# Feedback for ada")
    forced_rows, forced_feedback = graded["forced"]
    assert forced_rows[("ada", "ex1_temperature_softmax_test")]["feedback"] == "通过"
    assert forced_feedback["ada"].startswith("# ada 的反馈")
