"""utils.can_senses: the toy word language of notebook 05 and its sense-gap measurement."""

import random

import pytest
import torch

from utils.can_senses import CAN_POSITIONS, CAN_SENTENCE, can_corpus, can_sentence, sense_gap
from utils.tokenizers import WordTokenizer


def test_the_sentence_has_five_cans_at_the_listed_positions():
    words = CAN_SENTENCE.split()
    assert [i for i, w in enumerate(words) if w == "can"] == list(CAN_POSITIONS)


def test_the_word_before_can_decides_its_sense():
    """After an article 'can' is the noun ('like' or '.' follows); after a subject word a verb or an object follows."""
    words = can_corpus(500, seed=3).split()
    after_article = {words[i + 1] for i in range(1, len(words) - 1) if words[i] == "can" and words[i - 1] in ("a", "the")}
    after_subject = {words[i + 1] for i in range(1, len(words) - 1) if words[i] == "can" and words[i - 1] in ("you", "we", "they", "canner")}
    assert after_article == {"like", "."}
    assert after_subject and not after_subject & {"like", "."}


def test_corpus_is_seeded_and_rejects_zero_sentences():
    assert can_corpus(20, seed=1) == can_corpus(20, seed=1) != can_corpus(20, seed=2)
    assert can_sentence(random.Random(0)).endswith(" .")
    with pytest.raises(ValueError, match="at least one sentence"):
        can_corpus(0)


class _FixedAttention:
    """A stand-in model whose attention output at every position is the embedding of the word before it."""

    training, device = False, torch.device("cpu")

    def __init__(self, vocab_size: int):
        self.table = torch.eye(vocab_size)

    def eval(self):
        return self

    def train(self, mode=True):
        return self

    def attend(self, idx):
        previous = torch.roll(idx, 1, dims=1)  # (N, T): the word before each position
        return None, self.table[previous], None  # (N, T, V): one-hot of the previous word


def test_sense_gap_is_large_when_the_output_is_the_previous_word_and_zero_when_constant():
    text = can_corpus(200, seed=0)
    tokenizer = WordTokenizer.from_text(text, unk=None)
    gap = sense_gap(_FixedAttention(tokenizer.vocab_size), tokenizer, text)
    assert gap["nouns"] > 2 and gap["verbs"] > 2
    # articles and subjects are different words (across 0); within: same article ~1/2, same subject word ~1/4
    assert gap["across"] == pytest.approx(0.0) and 0.3 < gap["gap"] < 0.45

    class Constant(_FixedAttention):
        def attend(self, idx):
            return None, torch.ones(*idx.shape, 4), None

    assert sense_gap(Constant(tokenizer.vocab_size), tokenizer, text)["gap"] == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(ValueError, match="fewer than"):
        sense_gap(Constant(tokenizer.vocab_size), tokenizer, "can you .")
