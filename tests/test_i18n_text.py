"""tr(): what code prints follows the notebook's language ($LM_LANG, else a folder named zh)."""

import pytest

from utils.i18n import text
from utils.i18n.text import notebook_language, tr

PASSED = "✓ {exercise}: all visible checks passed"


def test_language_from_env_folder_and_session(monkeypatch, tmp_path):
    monkeypatch.delenv("LM_LANG", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    (tmp_path / "zh").mkdir()
    monkeypatch.chdir(tmp_path / "zh")
    assert notebook_language() == "zh"
    monkeypatch.chdir(tmp_path)
    assert notebook_language() == "en"
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "notebooks" / "zh" / "01_autoregression.ipynb"))
    assert notebook_language() == "zh"  # JupyterLab's notebook path wins over the working folder
    monkeypatch.setenv("LM_LANG", "en")
    assert notebook_language() == "en"  # and $LM_LANG over both
    monkeypatch.setenv("LM_LANG", "fr")
    with pytest.raises(ValueError, match="not a course language"):
        notebook_language()


def test_tr_translates_and_fills_fields(monkeypatch):
    monkeypatch.setenv("LM_LANG", "zh")
    chinese = tr(PASSED, exercise="练习 1")
    assert chinese != PASSED.format(exercise="练习 1") and "练习 1" in chinese and "通过" in chinese
    monkeypatch.setenv("LM_LANG", "en")
    assert tr(PASSED, exercise="Exercise 1") == "✓ Exercise 1: all visible checks passed"


def test_untranslated_text_stays_english(monkeypatch):
    monkeypatch.setenv("LM_LANG", "zh")
    assert tr("a sentence nobody translated: {n}", n=3) == "a sentence nobody translated: 3"


def test_fuzzy_entries_are_not_used(monkeypatch, tmp_path):
    (tmp_path / "zh.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                    '#, fuzzy\nmsgid "old"\nmsgstr "旧"\n\nmsgid "new"\nmsgstr "新"\n', encoding="utf-8")
    monkeypatch.setattr(text, "MESSAGES_DIR", tmp_path)
    text.catalog.cache_clear()
    try:
        assert text.catalog("zh") == {"new": "新"}
    finally:
        text.catalog.cache_clear()


def test_checks_passed_names_the_exercise_in_the_notebook_language(monkeypatch, capsys):
    from utils.checks import checks_passed

    monkeypatch.setenv("LM_LANG", "zh")
    checks_passed("Exercise 3")
    checks_passed("Part A")  # not an 'Exercise N' label: kept as given
    assert capsys.readouterr().out.splitlines() == ["✓ 练习 3：所有可见检查均已通过", "✓ Part A：所有可见检查均已通过"]
    monkeypatch.setenv("LM_LANG", "en")
    checks_passed("Exercise 3")
    assert capsys.readouterr().out.strip() == "✓ Exercise 3: all visible checks passed"
