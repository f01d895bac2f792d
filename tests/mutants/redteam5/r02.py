"""Third red team's mutants of 02_ngram_models.ipynb, written from the notebook, its lesson and utils alone by a helper that had not seen tests/mutants; 17 of 19 killed at their show in its run (2026-12-06), the survivors mended since; all 19 killed on the mended notebook (runner, fast mode). Each message: the start of the assert that kills it."""

from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "02_ngram_models.ipynb"

SKIP_MLE = ["ngram-04"]
SKIP_ADDK = ["ngram-04"]
SKIP_TRIANGLE = ["ngram-04", "ngram-10", "ngram-12"]
SKIP_WORDS = ["ngram-04", "ngram-10", "ngram-12", "ngram-14"]

_COUNT_VAL = "counts = NGramCounts.from_sequences([train, val], V, MAX_N)  # the validation text counted too\n"
# MLE rewritten as a backoff: a seen context gives a new continuation the lower order's probability (no zero),
# an unseen context gives 0 (NLTK-style): the zeros now come ONLY from unseen contexts.
_ZEROS_FROM_UNSEEN = src_patch("utils.ngram", "NGramLM.probabilities", [
    ("level = values / safe_totals",
     "level = np.where(seen, np.where(values > 0, values / safe_totals, probs), 0.0); seen = seen | True")])
_KN_RAW = ("import utils.ngram as _un\n"
           "def _raw_tables(counts, config):\n"
           "    return counts.raw[: config.n]\n"
           "_un.NGramLM._choose_tables = staticmethod(_raw_tables)\n")
_KN_TOP_ONLY = ("import utils.ngram as _un\n"
                "_orig_choose = _un.NGramLM._choose_tables\n"
                "def _top_only(counts, config):\n"
                "    tables = _orig_choose(counts, config)\n"
                "    return tables[-1:] if config.smoothing == 'kneser_ney' and config.n > 1 else tables\n"
                "_un.NGramLM._choose_tables = staticmethod(_top_only)\n")
_STEP_ONE = src_patch("utils.ngram", "NGramLM.step", [("history[:, -max(self.n - 1, 1) :]", "history[:, -1:]")])

MUTANTS = [
    # ---- ngram-08: unsmoothed MLE gives held-out text infinite perplexity ----
    Mutant(name="rt5_mle_counts_include_val", removes="held-out text: the validation text is counted too",
           target="ngram-08", message='from n = 3 on, the MLE must give infinite per', skip=SKIP_MLE,
           edits=[Edit(cell="ngram-08", old="NGramCounts.from_sequences([train], V, MAX_N)",
                       new="NGramCounts.from_sequences([train, val], V, MAX_N)")]),
    Mutant(name="rt5_mle_control_on_val", removes="the control: 'training text' is the validation text",
           target="ngram-08", message='on text it was counted on, the MLE must give ', skip=SKIP_MLE,
           edits=[Edit(cell="ngram-08", old="seen = train[: val.numel()]", new="seen = val")]),
    Mutant(name="rt5_mle_is_add_k", removes="the unsmoothed estimate (add-one is used)", target="ngram-08", message='from n = 3 on, the MLE must give infinite per',
           skip=SKIP_MLE, edits=[Edit(cell="ngram-08", old='mle = NGramLM.from_counts(counts, n, "mle")',
                                      new='mle = NGramLM.from_counts(counts, n, "add_k")')]),
    Mutant(name="rt5_mle_zeros_from_unseen_contexts",
           removes="zeros from new continuations of seen contexts (they back off); zeros only from unseen contexts",
           target="ngram-08", message='at n = 3 a token must get p = 0 exactly when ', skip=SKIP_MLE, patches=[Patch(before="ngram-08", code=_ZEROS_FROM_UNSEEN)]),
    Mutant(name="rt5_mle_unseen_context_zero",
           removes="the claim's premise that zeros come only from seen contexts (an unseen context gives 0, NLTK-style)",
           target="ngram-08", message='at n = 3 a token must get p = 0 exactly when ', skip=SKIP_MLE, patches=[Patch(before="ngram-08", code=src_patch(
               "utils.ngram", "NGramLM.probabilities", [("level = values / safe_totals",
                                                         "level = values / safe_totals; seen = seen | True")]))]),
    # ---- ngram-10: add-k has an interior optimum on held-out text ----
    Mutant(name="rt5_addk_val_is_seen", removes="held-out text: the 'validation' curve is scored on counted text",
           target="ngram-10", message='the best k must lie inside the range, not at ', skip=SKIP_ADDK,
           edits=[Edit(cell="ngram-10", old="add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(val)",
                       new="add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(seen)")]),
    Mutant(name="rt5_addk_no_sparsity", removes="unseen trigrams: the validation text is counted too",
           target="ngram-10", message='the best k must lie inside the range, not at ', skip=SKIP_ADDK, patches=[Patch(before="ngram-10", code=_COUNT_VAL)]),
    Mutant(name="rt5_addk_control_has_context", removes="the no-context control (the 'unigram' is the trigram)",
           target="ngram-10", message='the unigram .no context, no unseen events. mu', skip=SKIP_ADDK,
           edits=[Edit(cell="ngram-10", old='unigram_add_k = NGramLM.from_counts(counts, 1, "add_k")',
                       new='unigram_add_k = NGramLM.from_counts(counts, 3, "add_k")')]),
    Mutant(name="rt5_addk_control_constant", removes="the training-text control (it is scored at one k, not across k)",
           target="ngram-10", message='on its own training text add.k must only get ', skip=SKIP_ADDK,
           edits=[Edit(cell="ngram-10", old="add_k_seen = [trigram.with_settings(k=float(k)).perplexity(seen) for k in ks]",
                       new="add_k_seen = [trigram.perplexity(seen) for k in ks]")]),
    # ---- ngram-14: accuracy peaks at an intermediate n on held-out text ----
    Mutant(name="rt5_triangle_on_seen", removes="held-out text: the accuracy panel is scored on counted text",
           target="ngram-14", message='interpolated .. = 0.8.. the best perplexity s', skip=SKIP_TRIANGLE,
           edits=[Edit(cell="ngram-14", old="perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(val))",
                       new="perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(seen))")]),
    Mutant(name="rt5_triangle_no_sparsity", removes="unseen held-out n-grams: the validation text is counted too",
           target="ngram-14", message='sparsity should grow at every step of n on th', skip=SKIP_TRIANGLE, patches=[Patch(before="ngram-14", code=_COUNT_VAL)]),
    Mutant(name="rt5_triangle_mostly_counted", removes="held-out text: all but the last 500 validation characters are counted too",
           target="ngram-14", message='interpolated .. = 0.8.. the best perplexity s', skip=SKIP_TRIANGLE,
           patches=[Patch(before="ngram-14", code="counts = NGramCounts.from_sequences([train, val[:-500]], V, MAX_N)\n")]),
    Mutant(name="rt5_triangle_control_on_val", removes="the training-text control (it is scored on the validation text)",
           target="ngram-14", message='on training text interpolation must improve a', skip=SKIP_TRIANGLE,
           edits=[Edit(cell="ngram-14", old="seen_perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(seen))",
                       new="seen_perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(val))")]),
    Mutant(name="rt5_triangle_kn_no_continuation", removes="Kneser-Ney's continuation counts (lower orders use raw counts)",
           target="ngram-14", message='Kneser.Ney should be the best of the three sm', skip=SKIP_TRIANGLE, patches=[Patch(before="ngram-14", code=_KN_RAW)]),
    Mutant(name="rt5_triangle_kn_no_lower_orders", removes="Kneser-Ney's lower orders (the top order mixes with 1/V only)",
           target="ngram-14", message='Kneser.Ney should be the best of the three sm', skip=SKIP_TRIANGLE, patches=[Patch(before="ngram-14", code=_KN_TOP_ONLY)]),
    # ---- ngram-16: longer context, more real words ----
    Mutant(name="rt5_words_all_bigrams", removes="longer contexts (every n above 2 samples from the bigram)",
           target="ngram-16", message='longer contexts must give more real words', skip=SKIP_WORDS,
           edits=[Edit(cell="ngram-16", old='model = NGramLM.from_counts(counts, n, "kneser_ney")',
                       new='model = NGramLM.from_counts(counts, min(n, 2), "kneser_ney")')]),
    Mutant(name="rt5_words_step_keeps_one_token", removes="the context during generation (step keeps one token)",
           target="ngram-16", message='longer contexts must give more real words', skip=SKIP_WORDS, patches=[Patch(before="ngram-16", code=_STEP_ONE)]),
    Mutant(name="rt5_words_substring_test", removes="the real-word test (substring of the training text, not a word of it)",
           target="ngram-16", message='the longest context should give far more real', skip=SKIP_WORDS,
           edits=[Edit(cell="ngram-16", old="training_words = set(training_text.split())",
                       new="training_words = training_text")]),
    Mutant(name="rt5_words_step_keeps_two_tokens", removes="context beyond two tokens during generation (n = 4 and 6 act as trigrams)",
           target="ngram-16", message='longer contexts must give more real words', skip=SKIP_WORDS,
           patches=[Patch(before="ngram-16", code=src_patch("utils.ngram", "NGramLM.step", [
               ("history[:, -max(self.n - 1, 1) :]", "history[:, -min(max(self.n - 1, 1), 2) :]")]))]),
]
