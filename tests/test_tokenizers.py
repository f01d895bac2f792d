"""Character and word tokenizers: round trips, special tokens, unknown symbols, persistence."""

import pytest

from utils.tokenizers import CharTokenizer, Tokenizer, WordTokenizer, build_tokenizer


def test_char_round_trip_and_sorted_vocabulary():
    text = "hello, world\nsecond line"
    tok = CharTokenizer.from_text(text)
    assert tok.decode(tok.encode(text)) == text
    assert tok.vocab == sorted(set(text))
    assert tok.vocab_size == len(set(text))


def test_specials_come_first_and_frame_items():
    tok = CharTokenizer.from_text("emma", boundary=".", unk="?")
    assert tok.vocab[:2] == [".", "?"] and tok.boundary_id == 0
    framed = tok.frame("emma")
    assert framed[0] == framed[-1] == tok.boundary_id
    assert tok.decode(framed) == ".emma."


def test_unknown_symbol_raises_with_advice_or_maps_to_unk():
    strict = CharTokenizer.from_text("abc")
    with pytest.raises(ValueError, match=r"not in the vocabulary: 'z'.*unk="):
        strict.encode("abz")
    lenient = CharTokenizer.from_text("abc", unk="<unk>")
    assert lenient.decode(lenient.encode("abz")) == "ab<unk>"


def test_no_boundary_and_bad_ids_are_clear_errors():
    tok = CharTokenizer.from_text("abc")
    with pytest.raises(ValueError, match="no boundary token"):
        tok.boundary_id
    with pytest.raises(ValueError, match="outside the vocabulary of size 3"):
        tok.decode([0, 7])


def test_empty_text_and_boundary_inside_text_are_rejected():
    with pytest.raises(ValueError, match="empty"):
        CharTokenizer.from_text("")
    with pytest.raises(ValueError, match="occurs in the text"):
        CharTokenizer.from_text("a.b", boundary=".")
    with pytest.raises(ValueError, match="empty"):
        WordTokenizer.from_text("   \t ")
    with pytest.raises(ValueError, match="level"):
        build_tokenizer("abc", level="bpe")


def test_word_round_trip_keeps_line_breaks():
    text = "the cat sat\non the mat\n"
    tok = WordTokenizer.from_text(text)
    ids = tok.encode(text)
    assert tok.vocab[0] == "<unk>"
    assert [tok.vocab[i] for i in ids] == ["the", "cat", "sat", "\n", "on", "the", "mat", "\n"]
    assert tok.decode(ids) == text


def test_word_min_count_maps_rare_words_to_unk():
    tok = WordTokenizer.from_text("a a b", min_count=2)
    assert tok.decode(tok.encode("a b")) == "a <unk>"
    with pytest.raises(ValueError, match="unk token is needed"):
        WordTokenizer.from_text("a a b", min_count=2, unk=None)


@pytest.mark.parametrize("tok", [CharTokenizer.from_text("xyz", boundary="."), WordTokenizer.from_text("x y z")])
def test_to_dict_from_dict_rebuilds_the_same_tokenizer(tok):
    copy = Tokenizer.from_dict(tok.to_dict())
    assert type(copy) is type(tok) and copy.vocab == tok.vocab
    sample = "x y" if isinstance(tok, WordTokenizer) else "xy"
    assert copy.encode(sample) == tok.encode(sample)
