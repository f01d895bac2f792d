"""Mutants of notebook 02: each removes the cause of one show (held-out text, or context)."""

from tests.mutation.spec import Edit, Mutant

NOTEBOOK = "02_ngram_models.ipynb"

TINY, TINY_KN, MLE_ZEROS, ADD_K, TRIANGLE, TUNE_D, SAMPLES = (
    "ngram-04", "ngram-12", "ngram-08", "ngram-10", "ngram-14", "tune-d", "ngram-16")
SEEN = "train[: val.numel()]"  # training text of the validation's length: nothing in it is unseen

MUTANTS = [
    Mutant(name="mle_scored_on_training_text", removes="unseen text: the MLE is scored on text it was counted on",
           target=MLE_ZEROS, message=r"MLE must give infinite perplexity",
           edits=[Edit(cell=MLE_ZEROS, old="log_probs = mle.token_log_probs(val)", new=f"log_probs = mle.token_log_probs({SEEN})"),
                  Edit(cell=MLE_ZEROS, old="mle_perplexity.append(mle.perplexity(val))",
                       new=f"mle_perplexity.append(mle.perplexity({SEEN}))")],
           skip=[TINY]),
    Mutant(name="mle_smoothed", removes="the unsmoothed estimate: the 'MLE' models are add-k models",
           target=MLE_ZEROS, message=r"MLE must give infinite perplexity",
           edits=[Edit(cell=MLE_ZEROS, old='mle = NGramLM.from_counts(counts, n, "mle")', new='mle = NGramLM.from_counts(counts, n, "add_k")')],
           skip=[TINY]),
    Mutant(name="add_k_scored_on_training_text", removes="unseen text: add-k is tuned on its own training text",
           target=ADD_K, message=r"best k must lie inside the range",
           edits=[Edit(cell=ADD_K, old="trigram.with_settings(k=float(k)).perplexity(val)",
                       new=f"trigram.with_settings(k=float(k)).perplexity({SEEN})")],
           skip=[TINY]),
    Mutant(name="triangle_scored_on_training_text", removes="unseen text: accuracy measured on the training text",
           target=TRIANGLE, message=r"best perplexity should be at an intermediate n",
           edits=[Edit(cell=TRIANGLE, old="NGramLM.from_counts(counts, n, smoothing, **settings).perplexity(val)",
                       new=f"NGramLM.from_counts(counts, n, smoothing, **settings).perplexity({SEEN})")],
           skip=[TINY, TINY_KN, ADD_K]),
    Mutant(name="kneser_ney_replaced_by_add_k", removes="Kneser-Ney's discounts and continuation counts: its curve is add-k's",
           target=TRIANGLE, message=r"Kneser-Ney should be the best of the three",
           edits=[Edit(cell=TRIANGLE, old='"Kneser-Ney (D = 0.75)": ("kneser_ney", {"discount": 0.75})',
                       new='"Kneser-Ney (D = 0.75)": ("add_k", {"k": 0.01})')],
           skip=[TINY, TINY_KN, ADD_K]),
    Mutant(name="samples_without_context", removes="the context: every 'n' samples from the unigram model",
           target=SAMPLES, message=r"longer contexts must give more real words|far more real words",
           edits=[Edit(cell=SAMPLES, old='model = NGramLM.from_counts(counts, n, "kneser_ney")',
                       new='model = NGramLM.from_counts(counts, 1, "kneser_ney")')],
           skip=[TINY, TINY_KN, ADD_K, TRIANGLE, TUNE_D]),
    # Survivor of the second red team (2026-12-05), re-created here and killed after the show was mended:
    Mutant(name="add_k_curve_of_the_unigram", removes="sparse contexts: the add-k curve is the unigram's (every character seen often)",
           target=ADD_K, message=r"too little smoothing must cost the trigram",
           edits=[Edit(cell=ADD_K, old='trigram = NGramLM.from_counts(counts, 3, "add_k")', new='trigram = NGramLM.from_counts(counts, 1, "add_k")')],
           skip=[TINY, TINY_KN]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("02")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as adopted5  # noqa: E402

MUTANTS += adopted5("02")  # the third red team's mutants, its survivors mended since (slow tier)

from tests.mutants.redteam6 import adopted as adopted6  # noqa: E402

MUTANTS += adopted6("02")  # the fourth red team's mutants (slow tier)
