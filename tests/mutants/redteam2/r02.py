"""Second red team's mutants of 02_ngram_models.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 16 of 17 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "02_ngram_models.ipynb"

# What cell ngram-08 leaves behind for later shows, rebuilt cheaply so that 08 can be skipped.
PRE = ("orders = list(range(1, MAX_N + 1))\nseen = train[: val.numel()]\n"
       "counts = NGramCounts.from_sequences([train], V, MAX_N)\n")
PRE_LEAK = PRE.replace("[train]", "[train, val]")


def source_patch(method: str, old: str, new: str) -> str:
    """Kernel code that rewrites one method of utils.ngram.NGramLM from its source (old -> new) and says so."""
    return ("import inspect as _i, textwrap as _t, utils.ngram as _m\n"
            f"_src = _t.dedent(_i.getsource(_m.NGramLM.{method}))\n"
            f"assert _src.count({old!r}) == 1, 'patch target not found'\n"
            f"_ns = {{}}; exec(_src.replace({old!r}, {new!r}), _m.__dict__, _ns); _m.NGramLM.{method} = _ns[{method!r}]\n"
            f"print('PATCHED NGramLM.{method}')\n")


S_08 = ["ngram-04"]
S_10 = ["ngram-04", "ngram-08"]
S_14 = ["ngram-04", "ngram-08", "ngram-10", "ngram-12"]
S_16 = ["ngram-04", "ngram-08", "ngram-10", "ngram-12", "ngram-14", "tune-d"]

MUTANTS = [
    # ---- mle_infinite_on_held_out ----
    Mutant("mle_silently_smoothed", "no smoothing: the 'MLE' loop uses add-k with a tiny k", "ngram-08", ".",
           edits=[Edit("ngram-08", 'mle = NGramLM.from_counts(counts, n, "mle")', 'mle = NGramLM.from_counts(counts, n, "add_k", k=1e-3)')],
           skip=S_08),
    Mutant("mle_val_counted", "held-out text: the validation text is counted with the training text", "ngram-08", ".",
           edits=[Edit("ngram-08", "NGramCounts.from_sequences([train], V, MAX_N)", "NGramCounts.from_sequences([train, val], V, MAX_N)")],
           skip=S_08),
    Mutant("mle_probabilities_clipped", "exact zeros: probabilities clamped at 1e-12 'for numerical safety'", "ngram-08", ".",
           patches=[Patch("ngram-08", "_orig_p = NGramLM.probabilities\n"
                          "NGramLM.probabilities = lambda self, h, w=None: _orig_p(self, h, w).clamp(min=1e-12)\n")],
           skip=S_08),
    Mutant("mle_history_off_by_one", "the right context: the history ends one token early (x_{t-n+1..t-1} predicts x_{t+1})",
           "ngram-08", ".",
           patches=[Patch("ngram-08", source_patch("histories", "[:, 1:]", "[:, :-1]"))], skip=S_08),
    # ---- add_k_has_an_interior_optimum ----
    Mutant("add_k_setting_ignored", "the pseudo-count: with_settings drops k, every point is the same model", "ngram-10", ".",
           patches=[Patch("ngram-10", PRE + "NGramLM.with_settings = lambda self, **changes: self\n")], skip=S_10),
    Mutant("add_k_denominator_without_v", "normalisation: the denominator adds k instead of k V", "ngram-10", ".",
           patches=[Patch("ngram-10", PRE + source_patch("probabilities", "config.k * vocab", "config.k"))], skip=S_10),
    Mutant("add_k_scored_on_training_text", "held-out text: the curve is measured on training text", "ngram-10", ".",
           edits=[Edit("ngram-10", "add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(val)",
                       "add_k_perplexity = [trigram.with_settings(k=float(k)).perplexity(seen)")],
           patches=[Patch("ngram-10", PRE)], skip=S_10),
    Mutant("add_k_val_counted", "held-out text: validation counted with the training text", "ngram-10", ".",
           patches=[Patch("ngram-10", PRE_LEAK)], skip=S_10),
    Mutant("add_k_unigram_no_sparsity", "sparse contexts: the curve uses a unigram (dense counts) instead of a trigram",
           "ngram-10", ".",
           edits=[Edit("ngram-10", 'NGramLM.from_counts(counts, 3, "add_k")', 'NGramLM.from_counts(counts, 1, "add_k")')],
           patches=[Patch("ngram-10", PRE)], skip=S_10),
    # ---- triangle_accuracy_peaks_at_intermediate_n ----
    Mutant("triangle_val_counted", "held-out text: validation counted with the training text", "ngram-14", ".",
           patches=[Patch("ngram-14", PRE_LEAK)], skip=S_14),
    Mutant("triangle_scored_on_training_text", "held-out text: accuracy measured on training text", "ngram-14", ".",
           edits=[Edit("ngram-14", "perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(val))",
                       "perplexity[name].append(NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(seen))")],
           patches=[Patch("ngram-14", PRE)], skip=S_14),
    Mutant("triangle_interpolation_unsmoothed", "smoothing: interpolation with lambda = 1 is the MLE (label unchanged)",
           "ngram-14", ".",
           edits=[Edit("ngram-14", '("interpolated", {"lam": 0.8})', '("interpolated", {"lam": 1.0})')],
           patches=[Patch("ngram-14", PRE)], skip=S_14),
    Mutant("triangle_kn_raw_lower_orders", "Kneser-Ney's continuation counts: raw counts at every order",
           "ngram-14", ".",
           patches=[Patch("ngram-14", PRE + "NGramLM._choose_tables = staticmethod(lambda counts, config: counts.raw[: config.n])\n")],
           skip=S_14),
    Mutant("triangle_history_off_by_one", "the most recent token: every history ends one token early (a skip model)",
           "ngram-14", ".",
           patches=[Patch("ngram-14", PRE + source_patch("histories", "[:, 1:]", "[:, :-1]"))], skip=S_14),
    # ---- longer_context_more_real_words ----
    Mutant("samples_all_bigram", "longer context: every sampled model is a bigram", "ngram-16", ".",
           edits=[Edit("ngram-16", 'NGramLM.from_counts(counts, n, "kneser_ney")', 'NGramLM.from_counts(counts, min(n, 2), "kneser_ney")')],
           patches=[Patch("ngram-16", PRE)], skip=S_16),
    Mutant("step_keeps_one_token", "the state: incremental generation keeps only the last token of history",
           "ngram-16", ".",
           patches=[Patch("ngram-16", PRE + source_patch("step", "history[:, -max(self.n - 1, 1) :]", "history[:, -1:]"))],
           skip=S_16),
    Mutant("step_history_one_short", "one token of context: generation keeps n-3 tokens of state, so each model "
           "predicts from n-2 tokens (an (n-1)-gram; keeping n-2 would be an equivalent mutant, since step re-adds the new token)",
           "ngram-16", ".",
           patches=[Patch("ngram-16", PRE + source_patch("step", "history[:, -max(self.n - 1, 1) :]", "history[:, -max(self.n - 3, 1) :]"))],
           skip=S_16),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['add_k_denominator_without_v', 'add_k_scored_on_training_text', 'add_k_setting_ignored', 'add_k_val_counted', 'mle_history_off_by_one', 'mle_probabilities_clipped', 'mle_silently_smoothed', 'mle_val_counted', 'samples_all_bigram', 'step_history_one_short', 'step_keeps_one_token', 'triangle_history_off_by_one', 'triangle_interpolation_unsmoothed', 'triangle_kn_raw_lower_orders', 'triangle_scored_on_training_text', 'triangle_val_counted']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
