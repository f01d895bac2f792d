"""The code's catalog: every tr()/mark() string of utils/ and the notebooks has a current Chinese with the same fields.

When this fails after you added strings: run `python -m utils.i18n messages`, translate the new
entries of utils/i18n/messages/zh.po (msgstr; keep each {field} as written) and drop the fuzzy flag
of the changed ones once their Chinese is right. The tooling itself is tested on a tiny course in tmp.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import polib
import pytest

from utils.i18n.__main__ import main
from utils.i18n.messages import catalog_path, collect, messages_status, sync_messages, translation_fields_ok
from utils.i18n.text import tr
from utils.widgets import attention_map, mask, positional, temperature

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "utils" / "widgets" / "static"
SAY = re.compile(r'lmSay(?:Html)?\((?:built\.)?model,\s*"((?:[^"\\]|\\.)*)"')
VIEWS = {"temperature.js": temperature, "attention_map.js": attention_map, "mask_grid.js": mask,
         "positional.js": positional}


def test_every_message_of_the_code_has_a_current_chinese_translation():
    status = messages_status()
    assert status.lines() == [], "\n".join(status.lines())
    assert status.total > 150  # utils' own strings are there (a collector that finds nothing would pass the rest)


def test_translations_keep_the_fields_of_the_english():
    entries = [entry for entry in polib.pofile(str(catalog_path())) if entry.msgstr]
    assert [entry.msgid for entry in entries if not translation_fields_ok(entry.msgid, entry.msgstr)] == []
    assert not translation_fields_ok("{n} steps", "{count} 步") and not translation_fields_ok("{x:.2f}", "{x}")


def test_the_views_write_only_strings_their_widget_sends():
    """Each lmSay("...") of a browser view is in its widget's VIEW_TEXT, so the catalog and tr() reach it."""
    for script, module in VIEWS.items():
        said = set(SAY.findall((STATIC / script).read_text(encoding="utf-8")))
        assert said and said <= set(module.VIEW_TEXT), f"{script}: {sorted(said - set(module.VIEW_TEXT))}"
    words = re.search(r"const WORDS = \{masked: \"([^\"]+)\", unmasked: \"([^\"]+)\"\}", (STATIC / "mask_grid.js").read_text())
    assert words and set(words.groups()) <= set(mask.VIEW_TEXT)


def test_a_widget_sends_its_words_in_the_notebook_language(monkeypatch):
    import torch

    monkeypatch.setenv("LM_LANG", "zh")
    widget = temperature.TemperatureWidget(torch.tensor([2.0, 1.0, 0.0]), ["a", "b", "c"])
    assert widget.view_text["draw samples"] == tr("draw samples") == "采样"
    monkeypatch.setenv("LM_LANG", "en")
    assert temperature.TemperatureWidget(torch.tensor([1.0, 0.0]), ["a", "b"]).view_text["draw samples"] == "draw samples"


def _tiny_course(root: Path, code: str, cell: str) -> None:
    (root / "utils").mkdir(parents=True)
    (root / "utils" / "shown.py").write_text(code, encoding="utf-8")
    (root / "notebooks").mkdir()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell, id="plotcell")])
    nbformat.write(notebook, root / "notebooks" / "01_tiny.ipynb")


def test_messages_collects_new_flags_changed_and_drops_gone_strings(tmp_path):
    _tiny_course(tmp_path, 'from utils.i18n.text import mark, tr\nLABELS = (mark("left"),)\n'
                           'def f(n):\n    return tr("loss after {n} steps", n=n)\n',
                 '%matplotlib inline\nax.set_title(tr("the bigram counts"))\n!echo hi\n')
    catalog, problems = sync_messages(tmp_path)
    assert problems == []
    assert [e.msgid for e in catalog] == ["left", "loss after {n} steps", "the bigram counts"]
    assert catalog[2].occurrences == [("notebooks/01_tiny.ipynb:plotcell", "")]
    assert "python-brace-format" in catalog[1].flags
    for entry, chinese in zip(catalog, ["左", "{n} 步后的损失", "二元模型的计数"]):
        entry.msgstr = chinese
    catalog.save(str(catalog_path(tmp_path)))
    assert messages_status(tmp_path).lines() == []

    (tmp_path / "utils" / "shown.py").write_text('def f(n):\n    return tr("loss after {n} training steps", n=n)\n')
    catalog, _ = sync_messages(tmp_path)
    changed = {e.msgid: e for e in catalog}["loss after {n} training steps"]
    assert "fuzzy" in changed.flags and changed.msgstr == "{n} 步后的损失"
    assert changed.previous_msgid == "loss after {n} steps"
    assert "left" not in {e.msgid for e in catalog}  # gone from the code: dropped
    status = messages_status(tmp_path)
    assert status.fuzzy == ["loss after {n} training steps"] and status.untranslated == []


def test_messages_reports_strings_it_cannot_read(tmp_path):
    _tiny_course(tmp_path, 'def f(n, name):\n    return tr(f"loss after {n} steps") + tr("a" + name) + tr(name)\n',
                 'print(mark(name))\n')
    _, problems = sync_messages(tmp_path)
    assert len(problems) == 3 and all("string literal" in line for line in problems)
    assert "utils/shown.py, line 2" in problems[0] and "01_tiny.ipynb:plotcell" in problems[2]


def test_the_command_line_counts_code_messages(capsys):
    code = main(["status", "01_autoregression.ipynb"])
    out = capsys.readouterr().out
    assert "code messages:" in out and code == (1 if messages_status().lines() else 0)


@pytest.mark.parametrize("language, expected", [("zh", "训练集"), ("en", "train")])
def test_collected_strings_are_what_tr_looks_up(monkeypatch, language, expected):
    monkeypatch.setenv("LM_LANG", language)
    assert "train" in collect().places and tr("train") == expected
