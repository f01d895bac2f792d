"""Red team G: mutants of notebook 11 (the journey). Each removes the cause the prose credits for one show's effect."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "11_the_journey.ipynb"

NOOP = "pass  # baseline: no change\n"
BANDS = "        self.bands = [steps_back // layers + (layer < steps_back % layers) for layer in range(layers)]\n"
NOT_CAUSAL = Edit("banded11", BANDS, BANDS + "        for block in self.blocks:  # the band bias below already limits the keys each query reads\n"
                                             "            block.causal = False\n")
KN_FIT = "dataset.train[:min(n, split_tokens)]"
CTX_SKIP = ["04fd6fd4"]  # section 3 does not read the equal-budget 4-gram fits
# speed only (not a cause): section 3 reads only the two Transformers of section 2 (and the count models), so the
# window MLP and the recurrent networks are not trained in the section-3 runs (training is seeded per model: same results)
FAST = Edit("f5ed87b9", 'families = ("window_mlp", "rnn", "gru", "transformer", "banded")', 'families = ("transformer", "banded")')

MUTANTS = [
    # ---- banded11 band_reaches_the_window
    Mutant("base_band", "nothing (baseline)", "banded11", r"NEVER", patches=[Patch("banded11", NOOP)]),
    Mutant("band_not_causal", "the control is not restricted to the last 8 tokens: its causal mask is dropped, so every "
           "query also reads all later tokens (the band bias only cuts the far past)", "banded11",
           r"window|token 0|predictions|read ahead", edits=[NOT_CAUSAL]),
    Mutant("bands_not_split", "the bands of the two layers do not add up to the window: each layer reaches back the whole 7 "
           "steps, so predictions read the last 15 tokens", "banded11", r"window|token 0|predictions",
           edits=[Edit("banded11", "self.bands = [steps_back // layers + (layer < steps_back % layers) for layer in range(layers)]",
                       "self.bands = [steps_back for layer in range(layers)]")]),
    Mutant("band_off_by_one", "the band mask cuts one key too many per layer (>= instead of >): predictions read 6 tokens",
           "banded11", r"window|token 0|predictions",
           edits=[Edit("banded11", "masked_fill(distance[None] > band", "masked_fill(distance[None] >= band")]),
    # ---- 04fd6fd4 kneser_ney_leads_at_equal_budget
    Mutant("base_budget", "nothing (baseline)", "04fd6fd4", r"NEVER", patches=[Patch("04fd6fd4", NOOP)]),
    Mutant("kn_extra_tokens", "the 'equal budget' 4-gram is counted on 50,000 tokens more than the networks read "
           "(unfair budget)", "04fd6fd4", r"equal tokens|Kneser-Ney|budget",
           edits=[Edit("04fd6fd4", KN_FIT, "dataset.train[:min(n + 50_000, split_tokens)]")]),
    Mutant("half_batch_fed", "the networks read only half of each batch (16 windows) while the budget counts 32: the 4-gram "
           "gets twice the tokens the networks really read", "04fd6fd4", r"equal tokens|same|tokens|budget",
           edits=[Edit("recipe11", "        logits = model(x.to(device))  # (B, T, V)\n",
                       "        x, y = x[: BATCH // 2], y[: BATCH // 2]  # (B/2, T) each\n"
                       "        logits = model(x.to(device))  # (B, T, V)\n")]),
    Mutant("kn_whole_split_budget", "the 'equal budget' 4-gram is counted on the whole split at every budget",
           "04fd6fd4", r"more n-grams|equal tokens|Kneser-Ney",
           edits=[Edit("04fd6fd4", KN_FIT, "dataset.train")]),
    # ---- d546469e context_beyond_the_window
    Mutant("base_context", "nothing (baseline)", "d546469e", r"NEVER", edits=[FAST], patches=[Patch("d546469e", NOOP)], skip=CTX_SKIP),
    Mutant("same_seed_pairs", "the seed spread: every extra pair is trained with SEED (a replica of the first pair), so "
           "the spread that bounds the claim is not measured", "d546469e", r"spread|bound|seed",
           edits=[FAST, Edit("d546469e", 'make_model("transformer", seed), make_model("banded", seed)',
                       'make_model("transformer", SEED), make_model("banded", SEED)'),
                  Edit("d546469e", "train_lm(full, seed=seed, evals=1), train_lm(banded, seed=seed, evals=1)",
                       "train_lm(full, seed=SEED, evals=1), train_lm(banded, seed=SEED, evals=1)")], skip=CTX_SKIP),
    Mutant("control_losses_typo", "the control of the extra seeds is not a control: its losses are the full model's "
           "(copy-paste: chunk_losses(full) twice)", "d546469e", r"spread|bound|control|flat|losses and those compared",
           edits=[FAST, Edit("d546469e", "(chunk_losses(full), chunk_losses(banded)), (full, banded)",
                       "(chunk_losses(full), chunk_losses(full)), (full, banded)")], skip=CTX_SKIP),
    Mutant("control_never_trained", "the control of the extra seeds is never trained (copy-paste: the full model trained twice)",
           "d546469e", r"same windows|spread|bound|control",
           edits=[FAST, Edit("d546469e", "train_lm(full, seed=seed, evals=1), train_lm(banded, seed=seed, evals=1)",
                       "train_lm(full, seed=seed, evals=1), train_lm(full, seed=seed, evals=1)")], skip=CTX_SKIP),
    Mutant("control_sees_future", "the control reads past its window (no causal mask: it sees later tokens, the next one "
           "included)", "d546469e", r"spread|bound|control|flat|window", edits=[FAST, NOT_CAUSAL], skip=CTX_SKIP),
]
