"""Second red team's mutants of 08_masks_copy_failure.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 16 of 22 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "08_masks_copy_failure.ipynb"

# cells not needed by later shows (target never depends on them)
S_LOSS = ["1479b43f"]
S_ATT = S_LOSS + ["bf13e9e4"]
S_PAST = S_ATT + ["688dd490"]
S_GARB = S_PAST + ["5d3f7a20"]
S_GRID = S_GARB + ["c4e8b2d6"]
S_WIDGET = S_GRID + ["b7e2d41f", "9a4f2c6e"]  # the widget's judge is rebuilt by a patch

MASK_ALWAYS_ON = Patch("05c84122", (
    "import utils.transformer as _t\n"
    "_orig_init = _t.Block.__init__\n"
    "def _always_causal(self, config):\n"
    "    _orig_init(self, config)\n"
    "    self.causal = True  # a rewrite that hard-codes the mask in the block, whatever config.causal says\n"
    "_t.Block.__init__ = _always_causal\n"
    "print('MUTANT ACTIVE: every Block is causal')\n"))

JUDGE_PATCH = Patch("6fdef88e", "judge = fit_judge(dataset, n=JUDGE_ORDER)  # as cell 9a4f2c6e (skipped)\n")

LEAKY_GENERATION = Patch("0eaa44c2", (
    "import torch as _torch, utils.copy_failure as _cf\n"
    "@_torch.no_grad()\n"
    "def _leaky_generation_time_nll(model, windows, score_from=1):\n"
    "    # off by one: the prefix fed for predicting ids[t+1] is ids[:t+2] (the target is in the input), read at position t\n"
    "    total, count = 0.0, 0\n"
    "    for window in windows:\n"
    "        ids = _torch.as_tensor(window, dtype=_torch.long, device=model.device)[None]\n"
    "        for t in range(ids.shape[1] - 1):\n"
    "            logits = model(ids[:, : t + 2])[0, t]\n"
    "            if t + 1 >= score_from:\n"
    "                total -= float(_torch.log_softmax(logits.float(), -1)[ids[0, t + 1]]); count += 1\n"
    "    return total / count\n"
    "_cf.generation_time_nll = _leaky_generation_time_nll\n"
    "print('MUTANT ACTIVE: leaky generation-time NLL')\n"))

MUTANTS = [
    # ---- 1479b43f causal_mask
    Mutant("mask_diagonal_off_by_one", "the mask hides only keys j > i+1: each query may read the next token", "1479b43f", ".",
           edits=[Edit("1479b43f", 'mask = torch.full((T, T), float("-inf")).triu(diagonal=1)',
                       'mask = torch.full((T, T), float("-inf")).triu(diagonal=2)')]),
    Mutant("mask_softmax_over_queries", "softmax normalised over queries (dim=0): the weight of (i, j) depends on later queries (exercise 1's leak)",
           "1479b43f", ".", edits=[Edit("1479b43f", "masked_weights = torch.softmax(scores + mask, dim=-1)",
                                        "masked_weights = torch.softmax(scores + mask, dim=0)")]),
    Mutant("mask_after_softmax", "mask applied after the softmax (future weights zeroed, no renormalisation over the past)",
           "1479b43f", ".", edits=[Edit("1479b43f", "masked_weights = torch.softmax(scores + mask, dim=-1)",
                                        "masked_weights = torch.softmax(scores, dim=-1) * (mask == 0)")]),
    # ---- bf13e9e4 copy_failure_loss
    Mutant("loss_mask_always_on", "both models masked: the 'unmasked' model cannot read the next token", "bf13e9e4", ".",
           patches=[MASK_ALWAYS_ON], skip=S_LOSS),
    Mutant("loss_unmasked_scored_with_mask", "the future is hidden when scoring the unmasked model (no answer to copy)", "bf13e9e4", ".",
           edits=[Edit("bf13e9e4", "for name, model in models.items():",
                       "for name, model in ((n, __import__('utils.copy_failure', fromlist=['with_mask']).with_mask(m, True)) for n, m in models.items()):")],
           skip=S_LOSS),
    Mutant("loss_models_untrained", "(almost) untrained models: 5 steps, nothing learned, nothing copied", "bf13e9e4", ".",
           edits=[Edit("78da3af9", "STEPS = pick(full=500, fast=400)", "STEPS = pick(full=5, fast=5)")], skip=S_LOSS),
    # ---- 688dd490 look_ahead_attention
    Mutant("attn_mask_always_on", "both models masked: no key after the query to look at", "688dd490", ".",
           patches=[MASK_ALWAYS_ON], skip=S_ATT),
    Mutant("attn_no_positions_in_models", "the models get no positions (positional='none') while POSITIONAL still says rotary: no key is 'the next one'",
           "688dd490", ".", edits=[Edit("05c84122", "positional=POSITIONAL)", 'positional="none")')], skip=S_ATT),
    Mutant("attn_models_untrained", "untrained models (5 steps): attention has learned nothing", "688dd490", ".",
           edits=[Edit("78da3af9", "STEPS = pick(full=500, fast=400)", "STEPS = pick(full=5, fast=5)")], skip=S_ATT),
    # ---- 5d3f7a20 past_only_agreement
    Mutant("past_generation_loss_is_teacher_forced", "the 'generation-time' loss is computed in one pass with the future visible",
           "5d3f7a20", ".", edits=[Edit("0eaa44c2", "package_generation_time_nll(model, windows) for name",
                                        "teacher_forced_nll(model, windows) for name")], skip=S_PAST),
    Mutant("past_generation_prefix_off_by_one", "generation-time loss feeds ids[:t+2] (the target itself) and reads position t",
           "5d3f7a20", ".", patches=[LEAKY_GENERATION], skip=S_PAST),
    Mutant("past_mask_always_on", "both models masked: the unmasked model never read the future", "5d3f7a20", ".",
           patches=[MASK_ALWAYS_ON], skip=S_PAST),
    # ---- c4e8b2d6 garbage_generation
    Mutant("garbage_mask_always_on", "both models masked: the 'copier' does not copy", "c4e8b2d6", ".",
           patches=[MASK_ALWAYS_ON], skip=S_GARB),
    Mutant("garbage_generation_prefix_off_by_one", "generation-time loss leaks the target (off-by-one prefix)", "c4e8b2d6", ".",
           patches=[LEAKY_GENERATION], skip=S_GARB),
    Mutant("garbage_samples_from_masked_model", "the 'unmasked' samples are written by the masked model: no garbage in the samples shown",
           "c4e8b2d6", ".", edits=[Edit("c4e8b2d6", "sample_continuations(model, prefix,", 'sample_continuations(models["masked"], prefix,')],
           skip=S_GARB),
    # ---- 9a4f2c6e judged_samples_grid
    Mutant("grid_with_mask_noop", "the run-time mask switch does nothing: every cell runs as trained", "9a4f2c6e", ".",
           patches=[Patch("9a4f2c6e", "import utils.copy_failure as _cf\nfrom copy import deepcopy as _dc\n"
                                      "_cf.with_mask = lambda model, masked: _dc(model).eval()\nprint('MUTANT ACTIVE: with_mask no-op')\n")],
           skip=S_GRID),
    Mutant("grid_masked_model_as_judge", "the referee is the masked Transformer itself, not a model that is neither", "9a4f2c6e", ".",
           edits=[Edit("9a4f2c6e", "judge = fit_judge(dataset, n=JUDGE_ORDER)", 'judge = models["masked"]')], skip=S_GRID),
    Mutant("grid_mask_always_on", "both models masked: the copier does not copy", "9a4f2c6e", ".",
           patches=[MASK_ALWAYS_ON], skip=S_GRID),
    # ---- 10f17290 widget_judged_samples
    Mutant("widget_both_masked", "the widget gets the masked model in both rows (no copier)", "10f17290", ".",
           edits=[Edit("6fdef88e", "widget = mask_widget(models, judge,",
                       'widget = mask_widget({"masked": models["masked"], "unmasked": models["masked"]}, judge,')],
           patches=[JUDGE_PATCH], skip=S_WIDGET),
    Mutant("widget_masked_model_as_judge", "the widget's referee is the masked Transformer itself", "10f17290", ".",
           patches=[Patch("6fdef88e", 'judge = models["masked"]  # the judge is one of the two players\n')], skip=S_WIDGET),
    Mutant("widget_stale_samples", "a new prefix updates the maps but the samples and their judged NLL stay those of the old prefix",
           "10f17290", ".", patches=[JUDGE_PATCH, Patch("6fdef88e", (
               "import utils.widgets.mask as _wm\n"
               "_orig_show = _wm.MaskGridWidget.show\n"
               "def _stale_show(self, prefix):\n"
               "    old = dict(self.texts) if self.texts else None\n"
               "    out = _orig_show(self, prefix)\n"
               "    if old and old.get('done'):\n"
               "        self.texts = old; print('MUTANT ACTIVE: stale samples kept for prefix', repr(prefix))\n"
               "    return out\n"
               "_wm.MaskGridWidget.show = _stale_show\n"))], skip=S_WIDGET),
    Mutant("widget_mask_always_on", "both models masked: the copier does not copy", "10f17290", ".",
           patches=[MASK_ALWAYS_ON, JUDGE_PATCH], skip=S_WIDGET),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['attn_mask_always_on', 'attn_models_untrained', 'attn_no_positions_in_models', 'garbage_generation_prefix_off_by_one', 'garbage_mask_always_on', 'grid_mask_always_on', 'grid_with_mask_noop', 'loss_mask_always_on', 'loss_models_untrained', 'loss_unmasked_scored_with_mask', 'mask_diagonal_off_by_one', 'past_generation_loss_is_teacher_forced', 'past_generation_prefix_off_by_one', 'past_mask_always_on', 'widget_both_masked', 'widget_mask_always_on']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
