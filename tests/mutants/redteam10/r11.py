"""Red team R: mutants of 11_the_journey.ipynb."""
from tests.mutation.spec import Edit, Mutant, Patch  # noqa: F401

NOTEBOOK = "11_the_journey.ipynb"
BAND = "banded11"
KN = "04fd6fd4"
CTX = "d546469e"
ANY = r"."

_ALL = [
    # ---- band_reaches_the_window
    Mutant("soft_band", "the control's band is soft (-5 bias instead of -inf): tokens beyond the window are down-weighted, still read",
           BAND, ANY, edits=[Edit("banded11", 'masked_fill(distance[None] > band, float("-inf"))',
                                  'masked_fill(distance[None] > band, -5.0)')]),
    Mutant("band_off_by_one", "each layer's band one key short (>= instead of >): the control reads 6 tokens, not the window's 8",
           BAND, ANY, edits=[Edit("banded11", "distance[None] > band", "distance[None] >= band")]),
    Mutant("banded_reads_ahead", "the banded control is built non-causal: it sees the future inside the chunk",
           BAND, ANY, edits=[Edit("banded11", "else BandedTransformer(config)",
                                  'else BandedTransformer(__import__("dataclasses").replace(config, causal=False))')]),
    # ---- kneser_ney_leads_at_equal_budget
    Mutant("kn_counted_with_val", "the whole-split Kneser-Ney 4-gram is counted on train + validation: its lead is a leak",
           KN, ANY, edits=[Edit("recipe11",
                                'kneser_ney = NGramLM.fit(dataset.train, dataset.vocab_size, n=4, smoothing="kneser_ney")',
                                'kneser_ney = NGramLM.fit(torch.cat([dataset.train, dataset.val]), dataset.vocab_size, n=4, smoothing="kneser_ney")')]),
    Mutant("neural_trained_on_val", "every neural model is trained on windows of the validation split it is scored on",
           KN, ANY, edits=[Edit("recipe11", "random_windows(dataset.train, BATCH, BLOCK, windows)",
                                "random_windows(dataset.val, BATCH, BLOCK, windows)")]),
    Mutant("kn_at_other_chunks", "the equal-budget 4-gram is scored on all validation chunks, the Transformer curve on the first 128",
           KN, ANY, edits=[Edit(KN, "kn_at = {n: float(chunk_losses(model, 128).mean())",
                                "kn_at = {n: float(chunk_losses(model).mean())")]),
    Mutant("kn_budget_doubled", "the equal-budget 4-gram is counted on 2N tokens, not the N the networks read",
           KN, ANY, edits=[Edit(KN, "dataset.train[:min(n, split_tokens)]", "dataset.train[:min(2 * n, split_tokens)]")]),
    # ---- context_beyond_the_window
    Mutant("fall_window_shifted", "the fall is measured from positions 16-23, not 8-15: context 8-16 back is never measured",
           CTX, ANY, edits=[Edit(CTX, "return loss[:, WINDOW : 2 * WINDOW].mean(dim=1)",
                                 "return loss[:, 2 * WINDOW : 3 * WINDOW].mean(dim=1)")]),
    Mutant("control_band_only_without_grad", "the control's band acts only without autograd: it is trained as a full Transformer",
           CTX, ANY, edits=[Edit("banded11", "            x, _ = block(x, False, None, None, bias=bias, **positions)",
                                 "            bias = torch.zeros_like(bias) if torch.is_grad_enabled() else bias\n"
                                 "            x, _ = block(x, False, None, None, bias=bias, **positions)")]),
    Mutant("pair_not_sharing_init", "the control of seeds >= 1 is initialised from another seed: the pair differs in more than the band",
           CTX, ANY, edits=[Edit(CTX, 'full, banded = make_model("transformer", seed), make_model("banded", seed)',
                                 'full, banded = make_model("transformer", seed), make_model("banded", seed + 100)')]),
]

_ORDER = ['kn_counted_with_val', 'fall_window_shifted', 'control_band_only_without_grad', 'pair_not_sharing_init', 'kn_at_other_chunks', 'neural_trained_on_val', 'soft_band', 'banded_reads_ahead', 'band_off_by_one', 'kn_budget_doubled']
MUTANTS = sorted(_ALL, key=lambda m: _ORDER.index(m.name))
