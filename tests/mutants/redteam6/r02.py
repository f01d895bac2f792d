"""Fourth red team's mutants of 02_ngram_models.ipynb: 12 of 12 killed at their show in its run (2026-12-06; written from the notebook, its lesson and utils alone by a helper that had not seen tests/mutants or any earlier red team's mutants). Each message: the start of the assert that kills it."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "02_ngram_models.ipynb"
SK_08 = ["ngram-04"]
SK_10 = ["ngram-04", "ngram-08-figure"]
SK_14 = ["ngram-04", "ngram-08-figure", "ngram-10", "ngram-12"]
SK_16 = ["ngram-04", "ngram-08-figure", "ngram-10", "ngram-12", "ngram-14"]
RECOUNT_WITH_VAL = "counts = NGramCounts.from_sequences([train, val], V, MAX_N)  # mutant: the held-out text counted too\n"

MUTANTS = [
    # ---- ngram-08: MLE infinite on held-out text ----
    Mutant(name="rt6_mle_counted_with_val", target="ngram-08", message='from n = 3 on, the MLE must give infinite per', skip=SK_08,
           removes="held-out text: the validation text is counted with the training text",
           edits=[Edit(cell="ngram-08", old="NGramCounts.from_sequences([train], V, MAX_N)",
                       new="NGramCounts.from_sequences([train, val], V, MAX_N)")]),
    Mutant(name="rt6_mle_zero_after_unseen_context", target="ngram-08", message='at n = 3 a token must get p = 0 exactly when ', skip=SK_08,
           removes="the stated cause of the zeros (seen context, new continuation): unseen contexts give 0 too (NLTK-style)",
           patches=[Patch(before="ngram-08", code=src_patch("utils.ngram", "NGramLM.probabilities",
                         [("level = values / safe_totals\n", "level = values / safe_totals; seen = np.ones_like(seen)\n")]))]),
    Mutant(name="rt6_perplexity_skips_zeros", target="ngram-08", message='from n = 3 on, the MLE must give infinite per', skip=SK_08,
           removes="the infinite surprisal of p = 0 tokens: perplexity averages only the finite log-probabilities",
           patches=[Patch(before="ngram-08", code=src_patch("utils.ngram", "NGramLM.perplexity",
                         [("torch.exp(-self.token_log_probs(tokens).mean())",
                           "(lambda s: torch.exp(-s[torch.isfinite(s)].mean()))(self.token_log_probs(tokens))")]))]),
    # ---- ngram-10: add-k has an interior optimum ----
    Mutant(name="rt6_addk_on_training_text", target="ngram-10", message='the best k must lie inside the range, not at ', skip=SK_10,
           removes="held-out text: the 'validation' curve is scored on training text",
           edits=[Edit(cell="ngram-10", old="add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(val) for k in ks]",
                       new="add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(seen) for k in ks]")]),
    Mutant(name="rt6_addk_counted_with_val", target="ngram-10", message='the best k must lie inside the range, not at ', skip=SK_10,
           removes="sparsity of held-out contexts: the validation text is counted too",
           patches=[Patch(before="ngram-10", code=RECOUNT_WITH_VAL)]),
    Mutant(name="rt6_addk_denominator_no_vocab", target="ngram-10", message='the best k must lie inside the range, not at ', skip=SK_10,
           removes="a normalised add-k: the denominator adds k instead of kV",
           patches=[Patch(before="ngram-10", code=src_patch("utils.ngram", "NGramLM.probabilities",
                         [("np.maximum(totals + config.k * vocab, 1e-300)", "np.maximum(totals + config.k, 1e-300)")]))]),
    # ---- ngram-14: the impossible triangle ----
    Mutant(name="rt6_triangle_on_training_text", target="ngram-14", message='interpolated .. = 0.8.. the best perplexity s', skip=SK_14,
           removes="held-out text: the accuracy curve is scored on training text",
           edits=[Edit(cell="ngram-14", old="perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(val))",
                       new="perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(seen))")]),
    Mutant(name="rt6_triangle_counted_with_val", target="ngram-14", message='sparsity should grow at every step of n on th', skip=SK_14,
           removes="sparsity of held-out n-grams: the validation text is counted too",
           patches=[Patch(before="ngram-14", code=RECOUNT_WITH_VAL)]),
    Mutant(name="rt6_sparsity_on_train", target="ngram-14", message='sparsity should grow at every step of n on th', skip=SK_14,
           removes="the measured object of sparsity: unseen share of training text, not held-out",
           edits=[Edit(cell="ngram-14", old="unseen.append(kn.unseen_share(val))", new="unseen.append(kn.unseen_share(seen))")]),
    # ---- ngram-16: longer context, more real words ----
    Mutant(name="rt6_sample_fixed_order", target="ngram-16", message='longer contexts must give more real words', skip=SK_16,
           removes="the varying context length: every sample comes from the 6-gram",
           edits=[Edit(cell="ngram-16", old='NGramLM.from_counts(counts, n, "kneser_ney")',
                       new='NGramLM.from_counts(counts, MAX_N, "kneser_ney")')]),
    Mutant(name="rt6_sample_history_one_token", target="ngram-16", message='longer contexts must give more real words', skip=SK_16,
           removes="longer contexts during sampling: step() keeps only the last token of history",
           patches=[Patch(before="ngram-16", code=src_patch("utils.ngram", "NGramLM.step",
                         [("history[:, -max(self.n - 1, 1) :]", "history[:, -1:]")]))]),
    Mutant(name="rt6_real_word_substring", target="ngram-16", message='the longest context should give far more real', skip=SK_16,
           removes="the real-word test: a 'word' counts as real when it is any substring of the training text",
           edits=[Edit(cell="ngram-16", old="training_words = set(training_text.split())",
                       new="training_words = training_text")]),
]
