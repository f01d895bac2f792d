"""Mutants of notebook 08: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "08_masks_copy_failure.ipynb"

# cell ids of notebook 08
PARAMETERS, MASK, TRAIN, LOSSES, ATTENTION = "78da3af9", "1479b43f", "05c84122", "bf13e9e4", "688dd490"
MEASURE, AGREEMENT, GENERATION, GRID = "0eaa44c2", "5d3f7a20", "c4e8b2d6", "9a4f2c6e"
WIDGET, WIDGET_CHECK = "6fdef88e", "10f17290"

# The training is written in the notebook and checked equal to utils.copy_failure's helper: patch both.
BOTH_UNMASKED = Patch(before=TRAIN, code="""
import utils.copy_failure as _cf
_Config = _cf.TransformerConfig
_cf.TransformerConfig = TransformerConfig = lambda *args, causal=True, **kwargs: _Config(*args, causal=False, **kwargs)
""")
BOTH_MASKED = Patch(before=TRAIN, code="""
import utils.copy_failure as _cf
_Config = _cf.TransformerConfig
_cf.TransformerConfig = TransformerConfig = lambda *args, causal=True, **kwargs: _Config(*args, causal=True, **kwargs)
""")
# The model's attention never calls a mask on the fused path (F.scaled_dot_product_attention(is_causal=True)),
# so both the explicit mask and the fused call are replaced: query i may read key i+1 in the masked model.
LEAK_ONE_AHEAD = Patch(before=TRAIN, code="""
import torch
import torch.nn.functional as _F
import utils.attention as _attention


def _leaky_mask(T, device=None, offset=0):
    future = torch.ones(T, offset + T, dtype=torch.bool, device=device).triu(diagonal=offset + 2)  # j > i + 1 only
    return torch.zeros(T, offset + T, device=device).masked_fill(future, float("-inf"))


_fused = _F.scaled_dot_product_attention


def _leaky_fused(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, **kwargs):
    if is_causal:
        attn_mask, is_causal = _leaky_mask(q.shape[-2], q.device).to(q.dtype), False
    return _fused(q, k, v, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal, **kwargs)


_attention.causal_mask = _leaky_mask
_F.scaled_dot_product_attention = _leaky_fused
""")
MASKED_UNTRAINED = Patch(before=TRAIN, code="""
import dataclasses
import utils.copy_failure as _cf
_train = _cf.train


def _one_step_for_the_masked(model, batches, config, val_batches=None):
    if model.config.causal:
        config = dataclasses.replace(config, steps=1, warmup_steps=0)
    return _train(model, batches, config, val_batches)


_cf.train = train = _one_step_for_the_masked
""")
# The red team's survivor: the copier trained one step, so it never learns to copy; its samples are garbage anyway.
UNMASKED_UNTRAINED = Patch(before=TRAIN, code="""
import dataclasses
import utils.copy_failure as _cf
_train = _cf.train


def _one_step_for_the_unmasked(model, batches, config, val_batches=None):
    if not model.config.causal:
        config = dataclasses.replace(config, steps=1, warmup_steps=0)
    return _train(model, batches, config, val_batches)


_cf.train = train = _one_step_for_the_unmasked
""")
# A "generation-time" loss that feeds each whole window at once, so position t reads x[t+1].
SEES_THE_FUTURE = Patch(before=MEASURE, code="""
import utils.copy_failure as _cf


@torch.no_grad()
def generation_time_nll(model, windows):
    total, count = 0.0, 0
    for window in windows:
        ids = torch.tensor(window)[None]  # (1, T)
        log_probs = torch.log_softmax(model(ids).float(), dim=-1)[0]  # (T, V): every position sees the whole window
        total -= float(log_probs[:-1].gather(-1, ids[0, 1:, None]).sum())
        count += ids.shape[1] - 1
    return total / count


_cf.generation_time_nll = generation_time_nll  # the cell imports it from the package
""")
UNTRAINED = Edit(cell=PARAMETERS, old="STEPS = pick(full=500, fast=400)", new="STEPS = 1")

LATER_THAN_LOSSES = [MASK]
LATER_THAN_ATTENTION = [MASK, LOSSES]
LATER_THAN_MEASURE = [MASK, LOSSES, ATTENTION]
LATER_THAN_GRID = LATER_THAN_MEASURE + [AGREEMENT, GENERATION]
# Samples judged by a referee that is neither model, but drawn from the wrong weights: every cell's samples come from
# the copier (the unmasked weights, run with the cell's mask); the losses and maps stay right.
SAMPLES_FROM_THE_COPIER = Patch(before=GRID, code="""
import utils.copy_failure as _cf
_sample = _cf.sample_continuations


def _copier_samples(model, prefix, n_samples, length, seed=0):
    return _sample(_cf.with_mask(models["unmasked"], model.config.causal), prefix, n_samples, length, seed=seed)


_cf.sample_continuations = _copier_samples
""")
# The widget's samples drawn from the wrong weights: both of its rows run the copier (its losses stay right).
WIDGET_SAMPLES_FROM_THE_COPIER = Patch(before=WIDGET, code="""
import utils.widgets.mask as _wm
_cell_runs = _wm.cell_runs
_wm.cell_runs = lambda models: _cell_runs({"masked": models["unmasked"], "unmasked": models["unmasked"]})
""")
# The widget's copier replaced by the unmasked model after one step (sections 2-5 keep the trained one).
WIDGET_COPIER_UNTRAINED = Patch(before=WIDGET, code="""
models = {"masked": models["masked"], "unmasked": train_one(False, replace(train_config, steps=1, warmup_steps=0))[0]}
""")

MUTANTS = [
    # ---- the causal mask (section 1)
    Mutant(name="mask_not_added", removes="the mask: the 'masked' weights are softmax(S), not softmax(S + M)",
           target=MASK, message=r"every future key .* weight exactly 0",
           edits=[Edit(cell=MASK, old="torch.softmax(scores + mask, dim=-1)", new="torch.softmax(scores, dim=-1)")]),
    Mutant(name="mask_leaks_one_ahead", removes="the mask's first diagonal: query i may read key i+1",
           target=MASK, message=r"every future key .* weight exactly 0",
           edits=[Edit(cell=MASK, old='float("-inf")).triu(diagonal=1)', new='float("-inf")).triu(diagonal=2)')]),
    Mutant(name="mask_hides_the_past", removes="the mask's direction: it hides the past (j < i) instead of the future",
           target=MASK, message=r"every future key .* weight exactly 0",
           edits=[Edit(cell=MASK, old='float("-inf")).triu(diagonal=1)', new='float("-inf")).tril(diagonal=-1)')]),
    # ---- the copy failure in the losses (section 2)
    Mutant(name="losses_both_unmasked", removes="the mask from the masked model: both models are trained without it",
           target=LOSSES, message=r"training loss should be far lower", patches=[BOTH_UNMASKED], skip=LATER_THAN_LOSSES),
    Mutant(name="losses_both_masked", removes="the missing mask: the unmasked model is trained with the mask too",
           target=LOSSES, message=r"training loss should be far lower", patches=[BOTH_MASKED], skip=LATER_THAN_LOSSES),
    Mutant(name="losses_mask_leaks_one_ahead", removes="the masked model's protection: its mask lets query i read key i+1",
           target=LOSSES, message=r"training loss should be far lower", patches=[LEAK_ONE_AHEAD],
           skip=LATER_THAN_LOSSES),
    Mutant(name="losses_positions_removed",
           removes="the positions: without them the unmasked model cannot tell which key is the next token",
           target=LOSSES, message=r"training loss should be far lower",
           edits=[Edit(cell=TRAIN, old="positional=POSITIONAL", new='positional="none"')], skip=LATER_THAN_LOSSES),
    Mutant(name="losses_untrained", removes="training: both models take one step",
           target=LOSSES, message=r"masked model should beat the unigram baseline", edits=[UNTRAINED],
           skip=LATER_THAN_LOSSES),
    Mutant(name="losses_masked_untrained",
           removes="a fair comparison: only the unmasked model is trained, the masked one takes one step",
           target=LOSSES, message=r"masked model should beat the unigram baseline", patches=[MASKED_UNTRAINED],
           skip=LATER_THAN_LOSSES),
    # ---- the attention map that looks one step ahead (section 3)
    Mutant(name="attention_both_masked", removes="the missing mask: the unmasked model is trained with the mask too",
           target=ATTENTION, message=r"next position", patches=[BOTH_MASKED], skip=LATER_THAN_ATTENTION),
    Mutant(name="attention_untrained", removes="training: both models take one step",
           target=ATTENTION, message=r"next position", edits=[UNTRAINED], skip=LATER_THAN_ATTENTION),
    Mutant(name="attention_map_transposed", removes="the reading of the map: rows are keys and columns queries",
           target=ATTENTION, message=r"next position",
           edits=[Edit(cell=ATTENTION, old="mean_attention(model, snippet) for", new="mean_attention(model, snippet).T for")],
           skip=LATER_THAN_ATTENTION),
    # ---- teacher-forced and generation-time losses on the same windows (section 4)
    Mutant(name="agreement_both_unmasked", removes="the mask from the masked model: both models are trained without it",
           target=AGREEMENT, message=r"masked model's generation-time and teacher-forced losses should agree",
           patches=[BOTH_UNMASKED], skip=LATER_THAN_MEASURE),
    Mutant(name="agreement_both_masked", removes="the missing mask: the unmasked model is trained with the mask too",
           target=AGREEMENT, message=r"unmasked model's generation-time loss should exceed its teacher-forced",
           patches=[BOTH_MASKED], skip=LATER_THAN_MEASURE),
    Mutant(name="agreement_mask_leaks_one_ahead", removes="the masked model's protection: its mask lets query i read key i+1",
           target=AGREEMENT, message=r"masked model's generation-time and teacher-forced losses should agree",
           patches=[LEAK_ONE_AHEAD], skip=LATER_THAN_MEASURE),
    Mutant(name="agreement_generation_sees_the_future",
           removes="the past-only condition: the 'generation-time' loss feeds each whole window at once",
           target=AGREEMENT, message=r"unmasked model's generation-time loss should exceed its teacher-forced",
           patches=[SEES_THE_FUTURE], skip=LATER_THAN_MEASURE),
    Mutant(name="agreement_untrained", removes="training: both models take one step, so neither has learned to copy",
           target=AGREEMENT, message=r"unmasked model's generation-time loss should exceed its teacher-forced",
           edits=[UNTRAINED], skip=LATER_THAN_MEASURE),
    # ---- garbage generations (section 4)
    Mutant(name="generation_both_masked", removes="the missing mask: the unmasked model is trained with the mask too",
           target=GENERATION, message=r"unmasked model's generations should be garbage|the unmasked model should copy",
           patches=[BOTH_MASKED], skip=LATER_THAN_MEASURE + [AGREEMENT]),
    Mutant(name="generation_sees_the_future",
           removes="the past-only condition: the 'generation-time' loss feeds each whole window at once",
           target=GENERATION, message=r"unmasked model's generations should be garbage",
           patches=[SEES_THE_FUTURE], skip=LATER_THAN_MEASURE + [AGREEMENT]),
    Mutant(name="generation_untrained", removes="training: both models take one step",
           target=GENERATION, message=r"masked model should predict from the past better than a unigram",
           edits=[UNTRAINED], skip=LATER_THAN_MEASURE + [AGREEMENT]),
    Mutant(name="generation_unmasked_untrained",
           removes="the copying: the unmasked model takes one step, so its garbage is not the copier's (red team)",
           target=GENERATION, message=r"before its generations are blamed on copying, the unmasked model should copy",
           patches=[UNMASKED_UNTRAINED], skip=LATER_THAN_MEASURE + [AGREEMENT]),
    Mutant(name="generation_mask_leaks_one_ahead", removes="the masked model's protection: its mask lets query i read key i+1",
           target=GENERATION, message=r"masked model should predict from the past better than a unigram",
           patches=[LEAK_ONE_AHEAD], skip=LATER_THAN_MEASURE + [AGREEMENT]),
    # ---- the 2 x 2 grid: samples judged by a model that is neither (section 5)
    Mutant(name="grid_masked_untrained",
           removes="a trained masked model: it takes one step, so its samples are garbage as well",
           target=GRID, message=r"lose by at least (0\.5|1\.0) nats per character", patches=[MASKED_UNTRAINED],
           skip=LATER_THAN_GRID),
    Mutant(name="grid_both_masked", removes="the missing mask: the unmasked model is trained with the mask too",
           target=GRID, message=r"lose by at least (0\.5|1\.0) nats per character|the unmasked model should copy",
           patches=[BOTH_MASKED],
           skip=LATER_THAN_GRID),
    Mutant(name="grid_samples_from_the_copier",
           removes="the masked model's samples: every cell writes with the copier's weights",
           target=GRID, message=r"lose by at least (0\.5|1\.0) nats per character",
           patches=[SAMPLES_FROM_THE_COPIER], skip=LATER_THAN_GRID),
    Mutant(name="grid_second_referee_blind",
           removes="the second referee's view of each cell: every cell gets the masked model's samples-on-text score",
           target=GRID, message=r"explain real text better than the copier",
           edits=[Edit(cell=GRID, old="on_text = {key: samples_on_text(cell) for key, cell in grid.items()}",
                       new="on_text = {key: samples_on_text(grid['masked', 'masked']) for key in grid}")],
           skip=LATER_THAN_GRID),
    Mutant(name="grid_unmasked_untrained",
           removes="the copying: the unmasked model takes one step, so its garbage is not the copier's (red team)",
           target=GRID, message=r"before its samples' scores are blamed on copying, the unmasked model should copy",
           patches=[UNMASKED_UNTRAINED], skip=LATER_THAN_GRID),
    # ---- the same experiment in the widget (section 6)
    Mutant(name="widget_samples_from_the_copier",
           removes="the masked model's samples in the widget: every cell writes with the copier's weights",
           target=WIDGET_CHECK, message=r"widget's judge should score the copier's samples at least 0.5",
           patches=[WIDGET_SAMPLES_FROM_THE_COPIER], skip=LATER_THAN_GRID),
    Mutant(name="widget_unmasked_untrained",
           removes="the copying: the unmasked model takes one step, so its garbage is not the copier's (red team)",
           target=WIDGET_CHECK, message=r"before its widget samples are blamed on copying, the unmasked model should copy",
           patches=[WIDGET_COPIER_UNTRAINED], skip=LATER_THAN_GRID),
]

# The second red team's survivors (stop 38), mended: the garbage cell measures its samples, the judge is asserted to be
# neither model (grid and widget), and the widget's samples are checked to be the new prefix's.
MUTANTS += [
    Mutant(name="generation_samples_from_masked_model",
           removes="the copier's samples: the 'unmasked' samples shown are written by the masked model (red team 2)",
           target=GENERATION, message=r"samples should be garbage: the judge should score them",
           edits=[Edit(cell=GENERATION, old="sample_continuations(model, prefix,", new='sample_continuations(models["masked"], prefix,')],
           skip=LATER_THAN_MEASURE + [AGREEMENT]),
    Mutant(name="grid_masked_model_as_judge", removes="a referee that is neither model: the masked Transformer judges (red team 2)",
           target=GRID, message=r"judge must be neither Transformer",
           edits=[Edit(cell=GRID, old="judge = fit_judge(dataset, n=JUDGE_ORDER)", new='judge = models["masked"]')],
           skip=LATER_THAN_GRID),
    Mutant(name="widget_masked_model_as_judge", removes="a referee that is neither model: the widget's judge is the masked Transformer (red team 2)",
           target=WIDGET_CHECK, message=r"widget's judge must be neither Transformer",
           patches=[Patch(before=WIDGET, code='judge = models["masked"]  # the judge is one of the two players\n')],
           skip=LATER_THAN_GRID),
    Mutant(name="widget_stale_samples",
           removes="fresh samples: a new prefix updates the maps, but the samples and their NLL stay the old prefix's (red team 2)",
           target=WIDGET_CHECK, message=r"samples of cell .* should be new ones",
           patches=[Patch(before=WIDGET, code=(
               "import utils.widgets.mask as _wm\n"
               "_orig_show = _wm.MaskGridWidget.show\n"
               "def _stale_show(self, prefix):\n"
               "    old = dict(self.texts) if self.texts else None\n"
               "    out = _orig_show(self, prefix)\n"
               "    if old and old.get('done'):\n"
               "        self.texts = old\n"
               "    return out\n"
               "_wm.MaskGridWidget.show = _stale_show\n"))],
           skip=LATER_THAN_GRID),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("08")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("08")  # the fifth red team's mutants (slow tier)
