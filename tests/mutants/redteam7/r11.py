"""Red team C: mutants of 11_the_journey.ipynb (one cause removed per mutant; the show's assert should fail)."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "11_the_journey.ipynb"

SLIDING_FULL = '''
_make_model_orig = make_model
def make_model(family, seed):
    """The "full" Transformer is a sliding-window (Longformer-style) one: it reads the last 32 tokens."""
    model = _make_model_orig(family, seed)
    if family == "transformer":
        torch.manual_seed(seed)
        model = BandedTransformer(model.config, reach=32)
    return model
'''

MUTANTS = [
    # ---- banded11 band_reaches_the_window
    Mutant("band_off_by_one", "a band that adds up to exactly 8 tokens (>= instead of >: each layer one key short, reach 6)",
           "banded11", "token 0 should move every prediction",
           edits=[Edit("banded11", "distance[None] > band", "distance[None] >= band")]),
    Mutant("bands_not_split", "bands that add up over layers (each layer gets the whole reach - 1: reach 15)",
           "banded11", "past the window",
           edits=[Edit("banded11", "self.bands = [steps_back // layers + (layer < steps_back % layers) for layer in range(layers)]",
                       "self.bands = [steps_back for layer in range(layers)]")]),
    Mutant("band_sign_flipped", "the band itself (distance computed key minus query: no past key is ever masked)",
           "banded11", "past the window",
           edits=[Edit("banded11", "distance = (torch.arange(T, device=idx.device)[:, None] - torch.arange(T, device=idx.device)[None, :])",
                       "distance = (torch.arange(T, device=idx.device)[None, :] - torch.arange(T, device=idx.device)[:, None])")]),
    # ---- 04fd6fd4 kneser_ney_leads_at_equal_budget
    Mutant("windows_differ", "the same windows in the same order for every model (each model its own window seed)",
           "04fd6fd4", "same windows in the same order",
           edits=[Edit("recipe11", "windows = torch.Generator().manual_seed(seed)",
                       "windows = torch.Generator().manual_seed(seed + len(windows_read))")]),
    Mutant("kn_budget_ignored", "the equal budget for the 4-gram (counted on the whole split at every budget N)",
           "04fd6fd4", "hold more n-grams and do better as N grows",
           edits=[Edit("04fd6fd4", "NGramLM.fit(dataset.train[:min(n, split_tokens)],", "NGramLM.fit(dataset.train,")]),
    Mutant("zero_grad_after_backward", "learning from the steps (gradients cleared between backward and step)",
           "04fd6fd4", "should beat the count bigram|shrink",
           edits=[Edit("recipe11", "        optimizer.zero_grad(set_to_none=True)\n        loss.backward()\n",
                       "        loss.backward()\n        optimizer.zero_grad(set_to_none=True)\n")]),
    Mutant("double_steps_transformers", "the same number of optimizer steps for every model (the Transformers take two "
           "AdamW steps on each batch: same windows, same tokens counted, twice the updates)", "04fd6fd4",
           "same number of tokens|same windows|steps",
           edits=[Edit("recipe11", "        optimizer.step()\n",
                       "        optimizer.step()\n"
                       "        if isinstance(model, TransformerLM):  # a second pass over the same batch\n"
                       "            loss = F.cross_entropy(model(x.to(device)).flatten(0, 1).float(), y.to(device).flatten())\n"
                       "            optimizer.zero_grad(set_to_none=True)\n"
                       "            loss.backward()\n"
                       "            optimizer.step()\n")]),
    # ---- d546469e context_beyond_the_window
    Mutant("pair_windows_differ", "the shared seed within a pair (the control of the extra seed reads other windows)",
           "d546469e", "trained on the same windows",
           edits=[Edit("d546469e", "train_lm(banded, seed=seed, evals=1)", "train_lm(banded, seed=seed + 1, evals=1)")],
           skip=["04fd6fd4"]),
    Mutant("full_is_sliding_window", "the full model's whole context (it is banded to the last 32 tokens)",
           "d546469e", "should read the whole chunk",
           patches=[Patch("f5ed87b9", SLIDING_FULL)], skip=["04fd6fd4"]),
    Mutant("measurement_includes_window", "measuring only beyond the window (the fall starts at position 0)",
           "d546469e", "should see no fall",
           edits=[Edit("d546469e", "return loss[:, WINDOW : 2 * WINDOW].mean(dim=1)", "return loss[:, : 2 * WINDOW].mean(dim=1)")],
           skip=["04fd6fd4"]),
    Mutant("sampling_se_not_divided", "a bound of three standard errors (the held-out spread is not divided by sqrt(N))",
           "d546469e", "should use its context",
           edits=[Edit("d546469e", "sampling_se = float(paired.std() / math.sqrt(paired.numel()))",
                       "sampling_se = float(paired.std())")],
           skip=["04fd6fd4"]),
    Mutant("control_smaller", "a control that differs only in the context (the banded control is half as wide, d_model 32)",
           "d546469e", "only difference|same|config|size|parameters",
           edits=[Edit("banded11", "return TransformerLM(config) if family == \"transformer\" else BandedTransformer(config)",
                       "return TransformerLM(config) if family == \"transformer\" else BandedTransformer(\n"
                       "        TransformerConfig(V, context_length=BLOCK, n_layer=2, n_head=4, d_model=32, positional=\"rotary\"))")],
           skip=["04fd6fd4"]),
]
