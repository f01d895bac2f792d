"""Notebook 02's widget on the static site: the next-symbol bars at every n are precomputed and follow the kernel's."""

from __future__ import annotations

import random

import torch

from utils.ngram_counts import NGramCounts
from utils.tokenizers import CharTokenizer
from utils.widgets.autoregression import readable
from utils.widgets.ngram import build_model, ngram_widget, top_next_tokens

TEXT = "the cat sat on the mat. the dog ate the hat; a cat and a dog.\n" * 3


def _explorer(prefix: str):
    tokenizer = CharTokenizer.from_text(TEXT)
    counts = NGramCounts.from_sequences([torch.tensor(tokenizer.encode(TEXT))], tokenizer.vocab_size, 4)
    return ngram_widget(counts, tokenizer, prefix=prefix, n=2), counts, tokenizer


def _expected(counts, tokenizer, n, smoothing, strength, prefix):
    symbols, probs = top_next_tokens(build_model(counts, n, smoothing, strength), tokenizer, prefix, 15)
    return [readable(s) for s in symbols], probs.tolist()


def test_every_order_is_precomputed_and_equals_the_kernels_bars():
    rng = random.Random(0)
    for prefix in ("the c", "a d", "ha"):
        explorer, counts, tokenizer = _explorer(prefix)
        for smoothing, strength in (("kneser_ney", 0.75), ("add_k", round(rng.uniform(0.1, 2.0), 2)), ("mle", None)):
            explorer.smoothing_picker.value = smoothing
            if strength is not None:
                explorer.strength_slider.value = strength
            payload = explorer.site_view.payload
            assert payload["smoothing"] == smoothing and payload["prefix"] == prefix
            assert sorted(payload["orders"], key=int) == [str(n) for n in range(1, counts.max_order + 1)]
            for n in range(1, counts.max_order + 1):
                symbols, probs = _expected(counts, tokenizer, n, smoothing, strength, prefix)
                shown = payload["orders"][str(n)]
                assert shown["symbols"] == symbols, (prefix, smoothing, n)
                assert torch.allclose(torch.tensor(shown["probs"]), torch.tensor(probs), atol=1e-6), (prefix, smoothing, n)
                assert shown["context"] == (prefix[-(n - 1):] if n > 1 else "")


def test_a_new_prefix_refreshes_the_payload_and_a_new_n_does_not_need_to():
    explorer, counts, tokenizer = _explorer("the c")
    before = explorer.site_view.payload
    explorer.n_slider.value = 3
    assert explorer.site_view.payload is before  # every n was already there
    explorer.prefix_box.value = "a d"
    assert explorer.site_view.payload["prefix"] == "a d"
    assert explorer.site_view.payload["orders"]["3"]["symbols"] == _expected(counts, tokenizer, 3, "kneser_ney", 0.75, "a d")[0]
