"""Mutants of notebook 11: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "11_the_journey.ipynb"

RECIPE, BANDED, TABLE, LEAD, CONTEXT = "recipe11", "banded11", "f5ed87b9", "04fd6fd4", "d546469e"

_NO_CONTEXT = """
_make_model = make_model
make_model = lambda family, seed: (BandedTransformer(_make_model("transformer", seed).config, reach=1)
                                   if family == "transformer" else _make_model(family, seed))
models["transformer"] = make_model("transformer", SEED)
train_lm(models["transformer"], evals=1)
losses["transformer"] = chunk_losses(models["transformer"])
"""

_SCRAMBLED = """
_order = torch.randperm(BLOCK, generator=torch.Generator().manual_seed(5))
_chunk_losses = chunk_losses
chunk_losses = lambda model, chunks=None: _chunk_losses(model, chunks)[:, _order]
losses = {name: loss[:, _order] for name, loss in losses.items()}
"""

MUTANTS = [
    Mutant(name="band_not_applied", removes="the band of the control's attention (its bias is dropped)", target=BANDED,
           message=r"past the window and no change",
           edits=[Edit(BANDED, "x, _ = block(x, False, None, None, bias=bias, **positions)",
                       "x, _ = block(x, False, None, None, bias=None, **positions)")]),
    Mutant(name="band_as_wide_as_the_block", removes="the window of the control (its reach becomes the whole block)",
           target=BANDED, message=r"past the window and no change",
           edits=[Edit(BANDED, "def __init__(self, config: TransformerConfig, reach: int = WINDOW):",
                       "def __init__(self, config: TransformerConfig, reach: int = BLOCK):")]),
    Mutant(name="full_model_banded_too", removes="the whole context of the full Transformer (it is banded as well)",
           target=BANDED, message=r"should move every prediction of the full model",
           edits=[Edit(BANDED, 'return TransformerLM(config) if family == "transformer" else BandedTransformer(config)',
                       "return BandedTransformer(config)")]),
    Mutant(name="kneser_ney_bigram", removes="the 4-gram's three tokens of context (Kneser-Ney counts bigrams)",
           target=LEAD, message=r"should lead the window MLP",
           edits=[Edit(RECIPE, 'kneser_ney = NGramLM.fit(dataset.train, dataset.vocab_size, n=4, smoothing="kneser_ney")',
                       'kneser_ney = NGramLM.fit(dataset.train, dataset.vocab_size, n=2, smoothing="kneser_ney")')]),
    Mutant(name="transformer_reads_more", removes="the equal budget (the Transformer trains twice as long)",
           target=LEAD, message=r"same number of tokens",
           edits=[Edit(TABLE, "curves[family] = train_lm(models[family])",
                       'curves[family] = train_lm(models[family], steps=2 * STEPS if family == "transformer" else STEPS)')]),
    Mutant(name="networks_frozen", removes="the training of the networks (learning rate 0)", target=LEAD,
           message=r"beat the count bigram", patches=[Patch(before=TABLE, code="LR = 0.0")]),
    Mutant(name="full_transformer_without_context", removes="the context of the full Transformer (it reads one token)",
           target=CONTEXT, message=r"the full model should read the whole chunk|within the window the Transformer",
           patches=[Patch(before=CONTEXT, code=_NO_CONTEXT)]),
    Mutant(name="positions_scrambled", removes="the order of the positions in the per-position curves", target=CONTEXT,
           message=r"within the window the Transformer should use its context",
           patches=[Patch(before=CONTEXT, code=_SCRAMBLED)]),
    # the second red team's four survivors (stop 38), re-created and killed after mending (slow tier)
    Mutant(name="kneser_ney_counted_on_whole_split",
           removes="the budget of the equal-budget Kneser-Ney (it is counted on the whole split at every N)", target=LEAD,
           message=r"should hold more n-grams and do better as N grows",
           edits=[Edit(LEAD, "NGramLM.fit(dataset.train[:min(n, split_tokens)],", "NGramLM.fit(dataset.train,")]),
    Mutant(name="windows_differ_per_model",
           removes="the same windows in the same order (each model's generator is seeded by its size)", target=LEAD,
           message=r"same windows in the same order",
           edits=[Edit(RECIPE, "windows = torch.Generator().manual_seed(seed)",
                       "windows = torch.Generator().manual_seed(seed + model.num_parameters())")]),
    Mutant(name="control_reads_four_tokens",
           removes="the control's window (the trained banded Transformer reads 4 tokens, not the claimed 8)", target=CONTEXT,
           message=r"exactly the last 8 tokens",
           patches=[Patch(before=TABLE, code=(
               "_make_model = make_model\n"
               "def make_model(family, seed):\n"
               "    if family == 'banded':\n"
               "        torch.manual_seed(seed)\n"
               "        return BandedTransformer(_make_model('transformer', seed).config, reach=4)\n"
               "    return _make_model(family, seed)\n"))],
           skip=[LEAD]),
    Mutant(name="fall_measured_from_position_zero",
           removes="the start of the measured fall at the window (it starts at position 0: the in-window fall leaks in)",
           target=CONTEXT, message=r"measurement should see no fall|curve should be flat beyond the window",
           edits=[Edit(CONTEXT, "return loss[:, WINDOW : 2 * WINDOW].mean(dim=1)", "return loss[:, : 2 * WINDOW].mean(dim=1)")],
           skip=[LEAD]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("11")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("11")  # the fifth red team's mutants (slow tier)

from tests.mutants.redteam8 import adopted as adopted8  # noqa: E402

MUTANTS += adopted8("11")  # the sixth red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("11")  # the eighth red team's mutants (slow tier)
