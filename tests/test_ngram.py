"""Properties of the n-gram model: proper distributions, finite smoothed perplexity, the shared interface, bad input."""

from __future__ import annotations

import math
from collections import Counter

import pytest
import torch

from utils.baselines import UnigramLM
from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.evaluation import evaluate
from utils.ngram import SMOOTHINGS, NGramLM
from utils.ngram_counts import NGramCounts, ngram_windows, pack
from utils.sampling import generate, generate_text
from utils.tokenizers import CharTokenizer

TEXT = "the cat sat on the mat. the dog sat on the log. a cat and a dog met on a mat.\n" * 3
TOKENIZER = CharTokenizer.from_text(TEXT + "xyzbpr")  # never in training: x y z b p r
TRAIN = torch.tensor(TOKENIZER.encode(TEXT))
HELD_OUT = torch.tensor(TOKENIZER.encode("the zebra sat on a xylophone. a dog met the cat."))
V = TOKENIZER.vocab_size
SETTINGS = {"mle": {}, "add_k": {"k": 0.3}, "interpolated": {"lam": 0.7}, "kneser_ney": {"discount": 0.75}}


@pytest.mark.parametrize("smoothing", SMOOTHINGS)
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_every_context_gives_a_distribution(n, smoothing):
    model = NGramLM.fit(TRAIN, V, n, smoothing, **SETTINGS[smoothing])
    seen = [TRAIN[i : i + n - 1].tolist() for i in range(0, 40, 7)]
    unseen = [TOKENIZER.encode(s) for s in ("zzzz", "xyz", "p", "")] if n > 1 else [[]]
    for context in seen + unseen:
        probs = model.next_token_distribution(context)
        assert probs.shape == (V,)
        assert bool((probs >= 0).all())
        assert abs(float(probs.sum()) - 1) < 1e-6, (context, float(probs.sum()))
    log_probs = model(HELD_OUT[None, :])  # (1, T, V) every context of a held-out text
    assert torch.allclose(log_probs.double().exp().sum(-1), torch.ones(1, HELD_OUT.numel(), dtype=torch.float64), atol=1e-6)


@pytest.mark.parametrize("smoothing", ["add_k", "interpolated", "kneser_ney"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
def test_smoothed_held_out_perplexity_is_finite(n, smoothing):
    model = NGramLM.fit(TRAIN, V, n, smoothing, **SETTINGS[smoothing])
    perplexity = model.perplexity(HELD_OUT)
    assert math.isfinite(perplexity) and 1 < perplexity < V * 3


def test_unsmoothed_held_out_perplexity_is_infinite():
    model = NGramLM.fit(TRAIN, V, 3, "mle")
    assert model.perplexity(HELD_OUT) == math.inf
    assert model.perplexity(TRAIN) < 3  # held-in text: every n-gram was seen


def test_unigram_equals_frequencies():
    model = NGramLM.fit(TRAIN, V, 1, "mle")
    frequencies = torch.bincount(TRAIN, minlength=V).double() / TRAIN.numel()
    assert torch.allclose(model.next_token_distribution([3, 4]), frequencies, atol=1e-12)
    baseline = UnigramLM.fit(TRAIN, V, k=0.0)
    assert torch.allclose(model(HELD_OUT[None, :5]), baseline(HELD_OUT[None, :5]), atol=1e-6)


def test_word_level_model_on_the_course_corpus():
    from utils.data import load_splits
    from utils.tokenizers import WordTokenizer

    splits = load_splits("pydocs")
    words = WordTokenizer.from_text(splits.train[:60_000])
    train, held_out = (torch.tensor(words.encode(t)) for t in (splits.train[:60_000], splits.val[:8_000]))
    counts = NGramCounts.from_sequences([train], words.vocab_size, 4)
    perplexities = [NGramLM.from_counts(counts, n, "kneser_ney").perplexity(held_out) for n in (1, 2, 3, 4)]
    assert all(math.isfinite(p) for p in perplexities)
    assert perplexities[1] < perplexities[0]  # a word's predecessor helps
    assert abs(float(NGramLM.from_counts(counts, 3, "interpolated").next_token_distribution(train[:2].tolist()).sum()) - 1) < 1e-6


def test_counting_matches_a_python_counter():
    counts = NGramCounts.from_sequences([TRAIN], V, 4)
    for order in (1, 2, 4):
        expected = Counter(tuple(TRAIN[i : i + order].tolist()) for i in range(TRAIN.numel() - order + 1))
        table = counts.raw[order - 1]
        assert table.num_ngrams == len(expected)
        keys = pack(torch.tensor(list(expected)), V)
        assert table.find_values(keys).tolist() == list(expected.values())
        assert int(table.context_totals.sum()) == sum(expected.values())


def test_windows_do_not_cross_items():
    windows = ngram_windows([torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])], 2)
    assert windows.tolist() == [[1, 2], [2, 3], [5, 6]]


def test_forward_matches_next_token_distribution_and_shorter_start_contexts():
    model = NGramLM.fit(TRAIN, V, 4, "kneser_ney")
    idx = HELD_OUT[None, :12]
    log_probs = model(idx)  # (1, 12, V)
    assert log_probs.shape == (1, 12, V)
    for t in (0, 1, 2, 5, 11):  # t < 2: fewer than n-1 tokens seen, the shorter context is used
        expected = model.next_token_distribution(idx[0, : t + 1].tolist()).float()
        assert torch.allclose(log_probs[0, t].exp(), expected, atol=1e-6)


def test_shared_evaluate_equals_own_perplexity_on_text_and_items():
    model = NGramLM.fit(TRAIN, V, 3, "kneser_ney")
    metrics = evaluate(model, HELD_OUT, block_size=HELD_OUT.numel())
    assert metrics.perplexity == pytest.approx(model.perplexity(HELD_OUT), rel=1e-5)
    names = CharTokenizer.from_text("emmaoliviaavaisabella", boundary=".")
    items = [torch.tensor(names.encode(s)) for s in ("emma", "olivia", "ava", "isabella", "ella", "mia")]
    held_out = [torch.tensor(names.encode(s)) for s in ("bella", "liv")]
    boundary = names.boundary_id
    for n in (1, 2, 3, 4):
        items_model = NGramLM.fit(items, names.vocab_size, n, "kneser_ney", boundary_id=boundary)
        metrics = evaluate(items_model, held_out, boundary_id=boundary)
        assert metrics.tokens == 5 + 1 + 3 + 1
        assert metrics.perplexity == pytest.approx(items_model.perplexity(held_out), rel=1e-5)
        start = items_model.next_token_distribution([])  # an item's start: the history is all boundaries
        first_letters = {names.stoi[s[0]] for s in ("emma", "olivia", "ava", "isabella", "ella", "mia")}
        if n > 1:
            assert float(start[sorted(first_letters)].sum()) > 0.5


def test_shared_sampling_works_unchanged():
    model = NGramLM.fit(TRAIN, V, 4, "kneser_ney")
    out = generate(model, TOKENIZER.encode("the "), 30, generator=torch.Generator().manual_seed(0))
    assert out.shape == (1, 34)
    greedy = generate_text(model, TOKENIZER, "the d", 10, temperature=0)
    assert greedy.startswith("the dog ") and all(greedy[i : i + 4] in TEXT for i in range(len(greedy) - 3))
    mle = NGramLM.fit(TRAIN, V, 5, "mle")
    text = generate_text(mle, TOKENIZER, "a cat", 40, generator=torch.Generator().manual_seed(1))
    for i in range(len(text) - 4):  # every 5-gram an MLE 5-gram model samples was seen in training
        assert text[i : i + 5] in TEXT


def test_memory_and_sparsity_grow_with_n():
    counts = NGramCounts.from_sequences([TRAIN], V, 5)
    models = [NGramLM.from_counts(counts, n, "kneser_ney") for n in range(1, 6)]
    sizes = [m.table_bytes() for m in models]
    contexts = [m.num_contexts for m in models]
    unseen = [m.unseen_share(HELD_OUT) for m in models]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    assert contexts == sorted(contexts) and contexts[0] == 1
    assert unseen == sorted(unseen) and unseen[-1] > unseen[0]
    assert models[1].num_ngrams == len(set(zip(TRAIN[:-1].tolist(), TRAIN[1:].tolist())))


def test_with_settings_shares_tables_and_changes_strength():
    model = NGramLM.fit(TRAIN, V, 3, "add_k", k=1.0)
    weaker = model.with_settings(k=0.01)
    assert weaker.tables[-1].keys is model.tables[-1].keys
    assert weaker.perplexity(TRAIN) < model.perplexity(TRAIN)
    with pytest.raises(ValueError, match="from_counts"):
        model.with_settings(n=2)


def test_checkpoint_round_trip(tmp_path):
    model = NGramLM.fit(TRAIN, V, 3, "kneser_ney", discount=0.6)
    path = save_checkpoint(tmp_path / "ngram.pt", model, corpus="toy")
    loaded, metadata = load_checkpoint(path)
    assert metadata == {"corpus": "toy"} and isinstance(loaded, NGramLM)
    assert loaded.config == model.config
    assert torch.equal(loaded(HELD_OUT[None, :]), model(HELD_OUT[None, :]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, "n must be an integer >= 1"),
        ({"n": 2, "smoothing": "add_k", "k": -1.0}, "k must be >= 0"),
        ({"n": 2, "smoothing": "kneser_ney", "discount": 1.5}, "discount must lie in"),
        ({"n": 2, "smoothing": "laplace"}, "unknown smoothing"),
    ],
)
def test_bad_settings_raise_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        NGramLM.fit(TRAIN, V, **kwargs)


def test_bad_data_raises_clear_errors():
    with pytest.raises(ValueError, match="empty corpus"):
        NGramLM.fit(torch.tensor([], dtype=torch.long), V, 2)
    with pytest.raises(ValueError, match="token ids must lie in"):
        NGramLM.fit(torch.tensor([1, 2, V]), V, 2)
    with pytest.raises(ValueError, match="do not fit in 64-bit keys"):
        NGramLM.fit(torch.tensor([1, 2, 3]), 50_000, 5)
    model = NGramLM.fit(TRAIN, V, 3)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        model.next_token_distribution([1, V + 3])
    with pytest.raises(ValueError, match="not in the vocabulary"):
        TOKENIZER.encode("the €")  # an unknown symbol in a text prefix
    with pytest.raises(ValueError, match="token ids must lie"):
        model(torch.tensor([[1, -2]]))


def test_benchmark_runs_on_a_tiny_slice():
    """Smoke test of benchmarks/bench_ngram.py (the real figures come from running it by hand)."""
    import importlib.util
    from pathlib import Path

    from utils.data import corpus_path

    pytest.importorskip("nltk.lm")
    try:
        corpus_path("shakespeare", opener=lambda url: (_ for _ in ()).throw(OSError("offline test")))
    except (FileNotFoundError, ValueError):
        pytest.skip("Tiny Shakespeare is not in the data mirror")
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_ngram.py"
    spec = importlib.util.spec_from_file_location("bench_ngram", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    summary = bench.main(["--train-chars", "3000", "--test-chars", "150", "--max-n", "3", "--skip-study"])
    assert summary["orders"] == [1, 2, 3]
    assert summary["max_relative_perplexity_difference"] < 1e-6
    assert all(math.isfinite(p) for p in summary["perplexity_ours"])
