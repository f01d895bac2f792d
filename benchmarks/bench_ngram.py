"""Speed of utils.ngram against NLTK's nltk.lm: interpolated Kneser-Ney, n = 1..5, Tiny Shakespeare, characters.

    python benchmarks/bench_ngram.py                              # the default slice
    python benchmarks/bench_ngram.py --train-chars 100000 --test-chars 2000

The same work for both: fit a model of order n on the first --train-chars characters of
the course's training split, then its perplexity on the first --test-chars characters of
the validation split (characters never seen in the training slice are dropped, so
perplexities are finite), every token after the first scored with the context before it
(shorter at the very start). Ours runs with interpolate_uniform=False, NLTK's definition of
Kneser-Ney (see tests/test_ngram_vs_nltk.py). NLTK's KneserNeyInterpolated(1) divides by
zero, so n = 1 is NLTK's MLE(1), the same model (a Kneser-Ney unigram with nothing to
interpolate is the plain frequencies). NLTK scans all stored contexts for every
continuation count, so its time grows with the slice; the slice is big enough that
counting matters and small enough that NLTK finishes in about a minute.

Also timed: the notebook's whole study (ours only, default Kneser-Ney, n = 1..6 on the
full training split, perplexity on the full validation split).
Target: at least 100 times faster than NLTK with equal perplexities (1e-6 relative).
Prints one line per order, then, last, ONE JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

import torch
from nltk.lm import MLE, KneserNeyInterpolated
from nltk.util import everygrams

from utils.data import MIRROR_ENV_VAR
from utils.dataset import load_dataset
from utils.ngram import NGramLM
from utils.ngram_counts import NGramCounts

TARGET_SPEEDUP = 100.0


def ours(train: torch.Tensor, test: torch.Tensor, vocab_size: int, n: int) -> float:
    """Fit our Kneser-Ney model of order n and return its perplexity on `test`."""
    model = NGramLM.fit(train, vocab_size, n, "kneser_ney", discount=0.75, interpolate_uniform=False)
    return model.perplexity(test)


def nltk_reference(train: list[str], test: list[str], n: int) -> float:
    """Fit NLTK's model of order n on the same symbols and return its perplexity on the same predictions."""
    model = MLE(1) if n == 1 else KneserNeyInterpolated(n, discount=0.75)
    model.fit([list(everygrams(train, max_len=n))], vocabulary_text=train)
    ngrams = [tuple(test[max(0, j - n + 1) : j + 1]) for j in range(1, len(test))]
    return model.perplexity(ngrams)


def timed(function, *args) -> tuple[float, float]:
    """(result, seconds) of one call."""
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def study_seconds(dataset, max_n: int = 6) -> float:
    """Seconds for the notebook's impossible-triangle study on the full splits (count once, n = 1..max_n)."""
    start = time.perf_counter()
    counts = NGramCounts.from_sequences([dataset.train], dataset.vocab_size, max_n)
    for n in range(1, max_n + 1):
        model = NGramLM.from_counts(counts, n, "kneser_ney")
        model.perplexity(dataset.val), model.unseen_share(dataset.val), model.table_bytes()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train-chars", type=int, default=100_000)
    parser.add_argument("--test-chars", type=int, default=1_000)
    parser.add_argument("--max-n", type=int, default=5)
    parser.add_argument("--skip-study", action="store_true", help="do not time the full n = 1..6 study")
    args = parser.parse_args(argv)
    os.environ.setdefault(MIRROR_ENV_VAR, "/work/shared/data")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # NLTK is single-threaded: compare like with like
    try:
        return run(args)
    finally:
        torch.set_num_threads(threads)


def run(args: argparse.Namespace) -> dict:
    """Time both implementations on the slice described by `args`; print and return the summary."""
    dataset = load_dataset("shakespeare", "char")
    vocab = dataset.tokenizer.vocab
    train_ids = dataset.train[: args.train_chars]
    known = set(train_ids.tolist())
    test_ids = torch.tensor([i for i in dataset.val[: args.test_chars].tolist() if i in known])
    train_text, test_text = [vocab[i] for i in train_ids.tolist()], [vocab[i] for i in test_ids.tolist()]

    rows = []
    for n in range(1, args.max_n + 1):
        ours_ppl, ours_s = timed(ours, train_ids, test_ids, dataset.vocab_size, n)
        nltk_ppl, nltk_s = timed(nltk_reference, train_text, test_text, n)
        rows.append({"n": n, "ours_s": ours_s, "nltk_s": nltk_s, "ours_ppl": ours_ppl, "nltk_ppl": nltk_ppl})
        print(f"n={n}: ours {ours_s:.3f}s ppl {ours_ppl:.6f} | nltk {nltk_s:.2f}s ppl {nltk_ppl:.6f}", flush=True)

    seconds_ours = sum(r["ours_s"] for r in rows)
    seconds_nltk = sum(r["nltk_s"] for r in rows)
    worst = max(abs(r["ours_ppl"] - r["nltk_ppl"]) / r["nltk_ppl"] for r in rows)
    speedup = seconds_nltk / seconds_ours
    summary = {
        "benchmark": "ngram_kneser_ney_vs_nltk",
        "corpus": "shakespeare (char)",
        "train_chars": int(train_ids.numel()),
        "test_chars": int(test_ids.numel()),
        "dropped_unknown_test_chars": int(min(args.test_chars, dataset.val.numel()) - test_ids.numel()),
        "orders": [r["n"] for r in rows],
        "seconds_ours": round(seconds_ours, 4),
        "seconds_nltk": round(seconds_nltk, 3),
        "speedup": round(speedup, 1),
        "perplexity_ours": [round(r["ours_ppl"], 6) for r in rows],
        "perplexity_nltk": [round(r["nltk_ppl"], 6) for r in rows],
        "max_relative_perplexity_difference": worst,
        "target_speedup": TARGET_SPEEDUP,
        "meets_target": bool(speedup >= TARGET_SPEEDUP and worst <= 1e-6 and all(math.isfinite(r["ours_ppl"]) for r in rows)),
    }
    if not args.skip_study:
        summary["study_n1_to_6_full_splits_s"] = round(study_seconds(dataset), 3)
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
