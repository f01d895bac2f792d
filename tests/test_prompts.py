"""corpus_prompt: prompts every corpus can encode, words kept apart."""

import pytest

from utils.prompts import corpus_prompt
from utils.tokenizers import CharTokenizer


def _names_like() -> CharTokenizer:
    return CharTokenizer.from_text("abcdefghijklmnopqrstuvwxyz", boundary=".")


def test_words_stay_apart_without_a_space_in_the_vocabulary():
    tok = _names_like()
    ids, text = corpus_prompt(tok, "Return the ")
    assert text == ".return.the."  # the space became the item boundary, not nothing ('returnthe')
    assert ids == tok.encode(text)
    assert ids[0] == tok.boundary_id


def test_whitespace_runs_give_one_boundary_and_no_double_start():
    tok = _names_like()
    ids, text = corpus_prompt(tok, "  Ann \n bob")
    assert text == ".ann.bob"
    assert ids == tok.encode(text)


def test_plain_vocabulary_keeps_spaces_and_drops_unknown_characters():
    tok = CharTokenizer.from_text("abc ABC")
    ids, text = corpus_prompt(tok, "Ab c!")
    assert text == "Ab c"
    assert ids == tok.encode(text)


def test_unknown_case_is_lowercased():
    tok = CharTokenizer.from_text("ab ")
    assert corpus_prompt(tok, "AB a")[1] == "ab a"


def test_nothing_encodable_without_a_boundary_raises():
    with pytest.raises(ValueError, match="no character"):
        corpus_prompt(CharTokenizer.from_text("abc"), "XYZ!")


def test_empty_prompt_with_a_boundary_is_the_boundary_alone():
    tok = _names_like()
    assert corpus_prompt(tok, "") == ([tok.boundary_id], ".")
