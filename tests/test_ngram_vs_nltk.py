"""Independent checks of utils.ngram: NLTK's nltk.lm (MLE, Laplace, KneserNeyInterpolated), and a dict-based reference.

How the settings are made to match NLTK
    - NLTK is fitted on the un-padded training text as one sequence (everygrams up to order n),
      and scores token j of the test text with the context test[max(0, j-n+1):j]: shorter
      contexts at the start, which is what NGramLM does for running text (no padding).
    - NLTK's vocabulary holds '<UNK>' besides the training symbols; our vocabulary gets the same
      extra id (0), so V agrees in Laplace's (c + 1) / (N + V).
    - Kneser-Ney: NLTK leaves the unigram level undiscounted and never mixes in 1/V, so the
      comparison uses interpolate_uniform=False; our default (True) is checked against the
      dict-based reference below instead.
    - Where definitions differ: NLTK's lower-order gamma counts the distinct next tokens
      after a context in the raw counts, ours among the continuation counts. They differ only
      for a k-gram seen solely at the very start of the text (it has no left neighbour), and
      then NLTK's distribution does not sum to 1 (or divides by zero). The training texts
      here are chosen so that their first n-gram occurs again later; the test asserts it.
    - MLE: NLTK gives 0 to every token after an unseen context (not a distribution); ours
      backs off to the shorter context. MLE is compared on a held-in slice (every context seen).
    - KneserNeyInterpolated(1) divides by zero in NLTK, so Kneser-Ney is compared for n >= 2.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import pytest
import torch

from utils.data import load_text
from utils.ngram import NGramLM

nltk_lm = pytest.importorskip("nltk.lm")
from nltk.util import everygrams  # noqa: E402

TEXT = load_text("pydocs")
TRAIN = TEXT[20_000:23_000]
HELD_OUT = "".join(c for c in TEXT[60_000:60_400] if c in set(TRAIN))
HELD_IN = TRAIN[1000:1300]
SYMBOLS = ["<UNK>", *sorted(set(TRAIN))]
STOI = {s: i for i, s in enumerate(SYMBOLS)}


def ids(text: str) -> torch.Tensor:
    return torch.tensor([STOI.get(c, 0) for c in text])


def nltk_perplexity(model_class, n: int, test: str, **kwargs) -> float:
    """Perplexity of NLTK's model on every token of `test` after the first, with the contexts described above."""
    model = model_class(n, **kwargs)
    model.fit([list(everygrams(list(TRAIN), max_len=n))], vocabulary_text=list(TRAIN))
    assert len(model.vocab) == len(SYMBOLS)
    ngrams = [tuple(test[max(0, j - n + 1) : j + 1]) for j in range(1, len(test))]
    return model.perplexity(ngrams)


def test_training_text_has_no_start_only_ngrams():
    """The precondition under which NLTK's Kneser-Ney and ours use the same definitions (see above)."""
    for n in range(1, 5):
        assert TRAIN[:n] in TRAIN[1:], f"the first {n}-gram of the training text occurs only at its start"


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_mle_matches_nltk(n):
    ours = NGramLM.fit(ids(TRAIN), len(SYMBOLS), n, "mle").perplexity(ids(HELD_IN))
    theirs = nltk_perplexity(nltk_lm.MLE, n, HELD_IN)
    assert math.isfinite(ours)
    assert ours == pytest.approx(theirs, rel=1e-6)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_add_one_matches_nltk_laplace(n):
    ours = NGramLM.fit(ids(TRAIN), len(SYMBOLS), n, "add_k", k=1.0).perplexity(ids(HELD_OUT))
    theirs = nltk_perplexity(nltk_lm.Laplace, n, HELD_OUT)
    assert ours == pytest.approx(theirs, rel=1e-6)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("discount", [0.1, 0.75])
def test_kneser_ney_matches_nltk(n, discount):
    model = NGramLM.fit(ids(TRAIN), len(SYMBOLS), n, "kneser_ney", discount=discount, interpolate_uniform=False)
    theirs = nltk_perplexity(nltk_lm.KneserNeyInterpolated, n, HELD_OUT, discount=discount)
    assert model.perplexity(ids(HELD_OUT)) == pytest.approx(theirs, rel=1e-6)


def test_mle_held_out_is_infinite_in_both():
    assert NGramLM.fit(ids(TRAIN), len(SYMBOLS), 3, "mle").perplexity(ids(HELD_OUT)) == math.inf
    assert nltk_perplexity(nltk_lm.MLE, 3, HELD_OUT) == math.inf


# ---- a slow, dict-based reference written straight from the formulas in utils/ngram.py ----
class ReferenceNGram:
    """Plain-Python n-gram probabilities (counts in dicts), for checking the vectorised model."""

    def __init__(self, tokens: list[int], vocab_size: int, n: int, smoothing: str, k=1.0, lam=0.8, discount=0.75,
                 interpolate_uniform=True):
        self.V, self.n, self.smoothing = vocab_size, n, smoothing
        self.k, self.lam, self.discount, self.uniform = k, lam, discount, interpolate_uniform
        self.raw = [Counter(tuple(tokens[i : i + m]) for i in range(len(tokens) - m + 1)) for m in range(n + 2)]
        left = [defaultdict(set) for _ in range(n + 1)]
        for m in range(1, n):
            for gram in self.raw[m + 1]:
                left[m][gram[1:]].add(gram[0])
        self.continuation = [Counter({g: len(s) for g, s in left[m].items()}) for m in range(n + 1)]

    def table(self, order: int) -> Counter:
        if self.smoothing == "kneser_ney" and order < self.n:
            return self.continuation[order]
        return self.raw[order]

    def prob(self, context: tuple[int, ...], word: int) -> float:
        p = 1.0 / self.V
        for order in range(1, min(self.n, len(context) + 1) + 1):
            h = context[len(context) - order + 1 :] if order > 1 else ()
            counts = self.table(order)
            following = {g[-1]: c for g, c in counts.items() if g[:-1] == h}
            total, types, value = sum(following.values()), len(following), following.get(word, 0)
            if self.smoothing == "add_k":
                if total + self.k * self.V > 0:
                    p = (value + self.k) / (total + self.k * self.V)
                continue
            if total == 0:
                continue
            if self.smoothing == "mle":
                p = value / total
            elif self.smoothing == "interpolated":
                p = self.lam * value / total + (1 - self.lam) * p
            else:
                d = self.discount if (order > 1 or self.uniform) else 0.0
                p = max(value - d, 0) / total + d * types / total * p
        return p


SMALL = TRAIN[:600]


@pytest.mark.parametrize(
    "smoothing, settings",
    [
        ("mle", {}),
        ("add_k", {"k": 0.5}),
        ("interpolated", {"lam": 0.6}),
        ("kneser_ney", {"discount": 0.75}),
        ("kneser_ney", {"discount": 0.4, "interpolate_uniform": False}),
    ],
)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_vectorised_model_matches_dict_reference(n, smoothing, settings):
    tokens = ids(SMALL)
    model = NGramLM.fit(tokens, len(SYMBOLS), n, smoothing, **settings)
    reference = ReferenceNGram(tokens.tolist(), len(SYMBOLS), n, smoothing, **settings)
    contexts = [(), tuple(ids("th").tolist()), tuple(ids("e ").tolist()), tuple(ids("q~").tolist()), (0, 0)]
    for context in contexts:
        ours = model.next_token_distribution(list(context))
        expected = torch.tensor([reference.prob(context, w) for w in range(len(SYMBOLS))], dtype=torch.float64)
        assert torch.allclose(ours, expected, rtol=1e-9, atol=1e-12), (context, smoothing, n)
