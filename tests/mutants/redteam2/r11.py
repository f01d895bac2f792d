"""Second red team's mutants of 11_the_journey.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 8 of 12 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "11_the_journey.ipynb"

_SKIP_KN_SHOW = ["04fd6fd4"]  # the Kneser-Ney show: d546469e does not need it

MUTANTS = [
    # ---- banded11: band_reaches_the_window ----
    Mutant(
        "band_off_by_one", "the band's edge is off by one (>= instead of >): each layer sees one key fewer, the stack reads 6 tokens, not the window's 8",
        "banded11", ".",
        edits=[Edit("banded11", "masked_fill(distance[None] > band,", "masked_fill(distance[None] >= band,")],
    ),
    Mutant(
        "bands_not_split", "every layer gets the whole window's look-back (bands do not add up): the stack reads 15 tokens",
        "banded11", ".",
        edits=[Edit("banded11", "self.bands = [steps_back // layers + (layer < steps_back % layers) for layer in range(layers)]",
                    "self.bands = [steps_back for layer in range(layers)]")],
    ),
    Mutant(
        "band_first_layer_only", "only the first layer is banded; the second attends to the whole causal past",
        "banded11", ".",
        edits=[Edit("banded11", "x, _ = block(x, False, None, None, bias=bias, **positions)",
                    "x, _ = block(x, False, None, None, bias=bias if band == self.bands[0] else None, **positions)")],
    ),
    # ---- 04fd6fd4: kneser_ney_leads_at_equal_budget ----
    Mutant(
        "future_leak", "the Transformers are not causal (causal=False): they see the very token they predict",
        "04fd6fd4", ".",
        edits=[Edit("banded11", 'positional="rotary")', 'positional="rotary", causal=False)')],
    ),
    Mutant(
        "transformer_reads_more", "unequal budget: the Transformer trains 3x the steps of the others",
        "04fd6fd4", ".",
        edits=[Edit("f5ed87b9", "curves[family] = train_lm(models[family])",
                    "curves[family] = train_lm(models[family], steps=3 * STEPS if family == 'transformer' else STEPS)")],
    ),
    Mutant(
        "kn_whole_split_at_every_budget", "the 'equal budget' Kneser-Ney is counted on the whole split at every budget N (the budget control is gone)",
        "04fd6fd4", ".",
        edits=[Edit("04fd6fd4", "NGramLM.fit(dataset.train[:min(n, split_tokens)],", "NGramLM.fit(dataset.train,")],
    ),
    Mutant(
        "different_windows_per_model", "each model draws different random windows (generator seeded by its size): not the same batches in the same order",
        "04fd6fd4", ".",
        edits=[Edit("recipe11", "windows = torch.Generator().manual_seed(seed)",
                    "windows = torch.Generator().manual_seed(seed + model.num_parameters())")],
    ),
    # ---- d546469e: context_beyond_the_window ----
    Mutant(
        "extra_seeds_untrained", "the extra seeds' full and banded Transformers are never trained",
        "d546469e", ".",
        edits=[Edit("d546469e", "train_lm(full, seed=seed, evals=1), train_lm(banded, seed=seed, evals=1)", "None")],
        skip=_SKIP_KN_SHOW,
    ),
    Mutant(
        "control_not_banded", "the trained control reads the whole 64-token chunk (reach = BLOCK): no control at all",
        "d546469e", ".",
        patches=[Patch("f5ed87b9",
                       "_make_model = make_model\n"
                       "def make_model(family, seed):\n"
                       "    if family == 'banded':\n"
                       "        torch.manual_seed(seed)\n"
                       "        return BandedTransformer(TransformerConfig(dataset.vocab_size, context_length=BLOCK, n_layer=2, n_head=4, d_model=64, positional='rotary'), reach=BLOCK)\n"
                       "    return _make_model(family, seed)\n"
                       "print('patched: banded reach', make_model('banded', 0).bands)\n")],
        skip=_SKIP_KN_SHOW,
    ),
    Mutant(
        "control_band_too_short", "the trained control reads only 4 tokens, not the window's 8 (the control no longer matches the window)",
        "d546469e", ".",
        patches=[Patch("f5ed87b9",
                       "_make_model = make_model\n"
                       "def make_model(family, seed):\n"
                       "    if family == 'banded':\n"
                       "        torch.manual_seed(seed)\n"
                       "        return BandedTransformer(TransformerConfig(dataset.vocab_size, context_length=BLOCK, n_layer=2, n_head=4, d_model=64, positional='rotary'), reach=4)\n"
                       "    return _make_model(family, seed)\n"
                       "print('patched: banded bands', make_model('banded', 0).bands)\n")],
        skip=_SKIP_KN_SHOW,
    ),
    Mutant(
        "future_leak_context", "the Transformers are not causal: the per-position curve is that of a model that sees its target",
        "d546469e", ".",
        edits=[Edit("banded11", 'positional="rotary")', 'positional="rotary", causal=False)')],
        skip=_SKIP_KN_SHOW,
    ),
    Mutant(
        "fall_window_from_zero", "the 'beyond the window' fall is measured from position 0 (window off by 8): the in-window fall leaks into the effect",
        "d546469e", ".",
        edits=[Edit("d546469e", "return loss[:, WINDOW : 2 * WINDOW].mean(dim=1)", "return loss[:, : 2 * WINDOW].mean(dim=1)")],
        skip=_SKIP_KN_SHOW,
    ),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['band_first_layer_only', 'band_off_by_one', 'bands_not_split', 'control_not_banded', 'extra_seeds_untrained', 'future_leak', 'future_leak_context', 'transformer_reads_more']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
