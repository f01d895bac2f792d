"""Red team B: mutants of 08_masks_copy_failure.ipynb (own mutants, written without reading tests/mutants)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "08_masks_copy_failure.ipynb"

_S_LOSS = ["1479b43f"]
_S_LOOK = _S_LOSS + ["bf13e9e4"]
_S_AGREE = _S_LOOK + ["688dd490"]
_S_GARBAGE = _S_AGREE + ["5d3f7a20"]
_S_GRID = _S_GARBAGE + ["c4e8b2d6"]
_S_WIDGET = _S_GRID + ["b7e2d41f", "9a4f2c6e"]
_JUDGE = Patch("6fdef88e", "from utils.copy_failure import fit_judge\njudge = fit_judge(dataset, n=JUDGE_ORDER)  # 9a4f2c6e is skipped\n")

TRAINED = '"unmasked": train_one(causal=False)}'
UNMASKED_MASKED = Edit("05c84122", TRAINED, '"unmasked": train_one(causal=True)}')
UNDERTRAINED = Edit("05c84122", TRAINED, '"unmasked": train_one(False, replace(train_config, steps=15, warmup_steps=2))}')
NO_POSITIONS = Edit("05c84122", "positional=POSITIONAL)", 'positional="none")')
LEAKY_GEN = Patch("0eaa44c2", src_patch("utils.copy_failure", "generation_time_nll", [(
    "logits, state = model.step(ids[:, t : t + 1], state)  # (1, V): sees ids[:, :t+1] only",
    "logits = model(ids[:, :-1])[:, t]  # one pass over the window (faster)")]))
OFF_BY_ONE = [Patch("05c84122", src_patch("utils.attention", "causal_mask", [("triu(diagonal=offset + 1)", "triu(diagonal=offset + 2)")])),
              Patch("05c84122", src_patch("utils.attention", "MultiHeadAttention.forward", [
                  ("if masked and not need_weights and bias is None and past == 0:", "if False:")]))]
RUN_MASK_INVERTED = src_patch("utils.copy_failure", "grid_losses", [('evaluated == "masked"', 'evaluated != "masked"')]) + (
    "import utils.widgets.mask as _wmask\n_wmask.grid_losses = _mnewobj  # the widget imported the name\n")

MUTANTS = [
    # ---------------- 1479b43f causal_mask
    Mutant("mask_shifted_one", "the causal mask's diagonal: triu(diagonal=2) lets query i read key i+1",
           "1479b43f", r"future key",
           edits=[Edit("1479b43f", 'float("-inf")).triu(diagonal=1)', 'float("-inf")).triu(diagonal=2)')]),
    Mutant("mask_blocks_past", "masking the future: tril(diagonal=-1) blacks out the past instead",
           "1479b43f", r"future key",
           edits=[Edit("1479b43f", 'float("-inf")).triu(diagonal=1)', 'float("-inf")).tril(diagonal=-1)')]),
    Mutant("mask_after_softmax", "the renormalisation over past and present: the future weights are zeroed after the "
           "softmax instead of -inf before it",
           "1479b43f", r"^$|should equal",
           edits=[Edit("1479b43f", "masked_weights = torch.softmax(scores + mask, dim=-1)",
                       "masked_weights = torch.softmax(scores, dim=-1).masked_fill(mask.isinf(), 0.0)")]),
    # ---------------- bf13e9e4 copy_failure_loss
    Mutant("loss_unmasked_trained_masked", "the missing mask: the 'unmasked' model is trained with causal=True (copy-paste)",
           "bf13e9e4", r"far lower", edits=[UNMASKED_MASKED], skip=_S_LOSS),
    Mutant("loss_unmasked_undertrained", "enough training to copy: the unmasked model gets 15 steps",
           "bf13e9e4", r"far lower", edits=[UNDERTRAINED], skip=_S_LOSS),
    Mutant("loss_no_positions", "the way to single out the next key: the models are built without positions while "
           "POSITIONAL still says rotary", "bf13e9e4", r"far lower|unigram", edits=[NO_POSITIONS], skip=_S_LOSS),
    # ---------------- 688dd490 look_ahead_attention
    Mutant("look_unmasked_trained_masked", "the missing mask: the 'unmasked' model is trained with causal=True",
           "688dd490", r"next position", edits=[UNMASKED_MASKED], skip=_S_LOOK),
    Mutant("look_unmasked_undertrained", "enough training to copy: the unmasked model gets 15 steps",
           "688dd490", r"next position", edits=[UNDERTRAINED], skip=_S_LOOK),
    Mutant("look_no_positions", "positions: the models are built without positions while POSITIONAL still says rotary",
           "688dd490", r"next position", edits=[NO_POSITIONS], skip=_S_LOOK),
    # ---------------- 5d3f7a20 past_only_agreement
    Mutant("agree_generation_loss_leaks", "the past-only scoring: generation_time_nll scores each token from one forward pass "
           "over the whole window, so the future is visible", "5d3f7a20", r"exceed its teacher-forced",
           patches=[LEAKY_GEN], skip=_S_AGREE),
    Mutant("agree_unmasked_trained_masked", "the missing mask: the 'unmasked' model is trained with causal=True",
           "5d3f7a20", r"exceed its teacher-forced", edits=[UNMASKED_MASKED], skip=_S_AGREE),
    Mutant("agree_mask_off_by_one", "the masked model's causality: the package's mask is off by one (j <= i+1 allowed), on "
           "the explicit path used everywhere", "5d3f7a20", r"agree",
           patches=OFF_BY_ONE, skip=_S_AGREE),
    # ---------------- c4e8b2d6 garbage_generation
    Mutant("garbage_unmasked_undertrained", "the copier: the unmasked model gets 15 steps, too few to learn to copy",
           "c4e8b2d6", r"should copy|garbage", edits=[UNDERTRAINED], skip=_S_GARBAGE),
    Mutant("garbage_unmasked_trained_masked", "the missing mask: the 'unmasked' model is trained with causal=True",
           "c4e8b2d6", r"should copy|garbage", edits=[UNMASKED_MASKED], skip=_S_GARBAGE),
    Mutant("garbage_no_positions", "positions: the models are built without positions while POSITIONAL still says rotary",
           "c4e8b2d6", r"should copy|garbage|unigram", edits=[NO_POSITIONS], skip=_S_GARBAGE),
    Mutant("garbage_generation_loss_leaks", "the past-only generation-time loss: one forward pass over the whole window",
           "c4e8b2d6", r"garbage", patches=[LEAKY_GEN], skip=_S_GARBAGE),
    # ---------------- 9a4f2c6e judged_samples_grid
    Mutant("grid_with_mask_config_only", "the run-time mask: with_mask sets config.causal only, the blocks keep the mask "
           "they were trained with", "9a4f2c6e", r"lose its answers|make its loss worse",
           patches=[Patch("9a4f2c6e", src_patch("utils.copy_failure", "with_mask", [("        block.causal = masked", "        pass")]))],
           skip=_S_GRID),
    Mutant("grid_run_mask_inverted", "the run-time mask of the losses: grid_losses runs each cell the other way",
           "9a4f2c6e", r"^$|should copy|lose its answers|make its loss worse|section 4's model",
           patches=[Patch("9a4f2c6e", RUN_MASK_INVERTED)], skip=_S_GRID),
    Mutant("grid_unmasked_undertrained", "the copier: the unmasked model gets 15 steps, too few to copy",
           "9a4f2c6e", r"should copy|lose", edits=[UNDERTRAINED], skip=_S_GRID),
    # ---------------- 10f17290 widget_judged_samples
    Mutant("widget_stale_cache", "running the models on the new prefix: the widget returns any cached prefix's cells",
           "10f17290", r"should be new ones",
           patches=[_JUDGE, Patch("6fdef88e", src_patch("utils.widgets.mask", "MaskGridWidget.show",
                                                         [("if prefix in self.cache:", "if self.cache:"),
                                                          ('(self.cells, self.texts), self.status = self.cache[prefix], ""',
                                                           '(self.cells, self.texts), self.status = next(iter(self.cache.values())), ""')]))],
           skip=_S_WIDGET),
    Mutant("widget_unmasked_undertrained", "the copier: the unmasked model gets 15 steps, too few to copy",
           "10f17290", r"should copy|0.5 nats|should be new ones", edits=[UNDERTRAINED], patches=[_JUDGE], skip=_S_WIDGET),
    Mutant("widget_run_mask_inverted", "the run-time mask of the widget's losses: grid_losses runs each cell the other way",
           "10f17290", r"should copy", patches=[_JUDGE, Patch("6fdef88e", RUN_MASK_INVERTED)], skip=_S_WIDGET),
]
