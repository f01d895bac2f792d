"""Red team B: mutants of 07_transformer_lm.ipynb (own mutants, written without reading tests/mutants)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "07_transformer_lm.ipynb"

_EARLY = ["7872952a", "d322a9fe"]
_TO_NORMS = _EARLY + ["residual_stacks", "c8be27cb", "fc0203d5"]
_TO_TRAINEVAL = _TO_NORMS + ["86a5db08", "af7cfc81", "b08d33dd"]
_TO_LNGRAD = _TO_TRAINEVAL + ["651c71d9"]
_TO_GRID = _TO_LNGRAD + ["ln_gradients_at_init"]
_TO_TABLE = _TO_GRID + ["f975b22b", "e77dff82", "5acf1e30", "e9fbb684", "scratch_sampler", "block_diagram",
                        "5ffb58c1", "scratch_generates", "a998e0b3", "attention_view"]

RES_LINE = "h = h + layer(h) if residual else layer(h)"

MUTANTS = [
    # ---------------- c8be27cb residuals_keep_gradients
    Mutant("residual_adds_stack_input", "the identity path: each residual adds the stack's input x, not the running stream h "
           "(wrong variable), so the gradient to layer 1 must pass through every branch",
           "c8be27cb", r"residual",
           edits=[Edit("residual_stacks", RES_LINE, "h = x + layer(h) if residual else layer(h)")], skip=_EARLY),
    Mutant("residual_identity_detached", "the identity path in the backward pass: h.detach() + F(h) (a 'memory-saving' detach) "
           "keeps the forward pass but the gradient reaches layer 1 only through the shrinking branches",
           "c8be27cb", r"with residuals the first layer's gradient",
           edits=[Edit("residual_stacks", RES_LINE, "h = h.detach() + layer(h) if residual else layer(h)")], skip=_EARLY),
    Mutant("control_rescales_bias_only", "the variance-preserving control: only the bias of each layer is rescaled, so the "
           "'variance-preserving' plain stack still shrinks like the default one",
           "c8be27cb", r"variance-preserving plain stack",
           edits=[Edit("residual_stacks", "layer.down.weight.mul_(scale), layer.down.bias.mul_(scale)",
                       "layer.down.bias.mul_(scale)")], skip=_EARLY),
    # ---------------- 86a5db08 padding_pollutes_batchnorm
    Mutant("batchnorm_stats_exclude_padding", "padding in BatchNorm's statistics: the 'BatchNorm' formula takes its mean and "
           "variance over the real tokens only",
           "86a5db08", r"BatchNorm should drift",
           edits=[Edit("86a5db08", "mean, variance = batch.reshape(-1, 8).mean(0), batch.reshape(-1, 8).var(0, unbiased=False)",
                       "mean, variance = batch[real].mean(0), batch[real].var(0, unbiased=False)")], skip=_TO_NORMS),
    Mutant("layernorm_over_sequence", "LayerNorm's per-token statistics: normalised over (positions, features) of the "
           "sequence, so padding enters LayerNorm's statistics too",
           "86a5db08", r"nothing may move",
           edits=[Edit("86a5db08", "return F.layer_norm(batch, (8,))[0, :6]", "return F.layer_norm(batch, batch.shape[1:])[0, :6]")],
           skip=_TO_NORMS),
    Mutant("real_mask_keeps_padding", "the control's padding mask: the padding positions are never marked, so 'BatchNorm over "
           "the real tokens' includes the padding",
           "86a5db08", r"nothing may move",
           edits=[Edit("86a5db08", "real[:, 6:] = False  # the padding positions", "pass  # the padding positions")],
           skip=_TO_NORMS),
    Mutant("neighbour_is_companion", "the other sentence of the neighbour test: it is the companion again (same seed and "
           "scale), so the batch does not change",
           "86a5db08", r"dependence on the other sentence",
           edits=[Edit("86a5db08", "other_sentence = torch.randn(6, 8, generator=torch.Generator().manual_seed(1)) * 3 - 2",
                       "other_sentence = torch.randn(6, 8, generator=torch.Generator().manual_seed(0)) * 2 + 1")],
           skip=_TO_NORMS),
    # ---------------- 651c71d9 batchnorm_train_eval_mismatch
    Mutant("new_input_same_distribution", "the mismatch between running averages and the new batch: the new input is drawn "
           "from the training distribution",
           "651c71d9", r"running averages",
           edits=[Edit("651c71d9", "new_input = torch.randn(4, 10, 8) * 3 - 1", "new_input = torch.randn(4, 10, 8) * 2 + 1")],
           skip=_TO_TRAINEVAL),
    Mutant("eval_pass_in_train_mode", "inference mode: the 'eval' pass runs in training mode (norm.train()), so the running "
           "averages are never used",
           "651c71d9", r"running averages should move",
           edits=[Edit("651c71d9", "norm.eval()", "norm.train()")], skip=_TO_TRAINEVAL),
    # ---------------- ln_gradients_at_init post_ln_gradients_grow_with_depth
    Mutant("xavier_applied_to_course_runs", "the Xavier initialisation: it is applied to the 'course' runs, so the 'xavier' "
           "numbers come from std-0.02 weights",
           "ln_gradients_at_init", r"Post-LN's last-layer gradient should grow",
           edits=[Edit("ln_gradients_at_init", 'if init == "xavier":', 'if init == "course":')], skip=_TO_LNGRAD),
    Mutant("placement_not_passed", "the LayerNorm placement: norm_placement is not passed, so both models are Pre-LN",
           "ln_gradients_at_init", r"Post-LN's last-layer gradient should grow",
           edits=[Edit("ln_gradients_at_init", "d_model=GRID_WIDTH, norm_placement=placement))", "d_model=GRID_WIDTH))")],
           skip=_TO_LNGRAD),
    Mutant("depth_fixed", "the depth: every probe model has the deepest depth, so the ratio cannot grow with L",
           "ln_gradients_at_init", r"Post-LN's last-layer gradient should grow",
           edits=[Edit("ln_gradients_at_init", "n_layer=depth,", "n_layer=DEPTHS[-1],")], skip=_TO_LNGRAD),
    # ---------------- e77dff82 post_ln_lags_on_the_grid
    Mutant("grid_trains_pre_only", "the placement: train_grid_run builds a Pre-LN model whatever `placement` says (the "
           "structure asserts check fresh models, not the trained ones)",
           "e77dff82", r"Post-LN in none",
           edits=[Edit("f975b22b", "model = make_grid_model(placement)", 'model = make_grid_model("pre")')], skip=_TO_GRID),
    Mutant("post_gets_lower_lr", "a fair control: the Post-LN seeds are trained at a lower learning rate than Pre-LN, so "
           "the control differs in more than the placement",
           "e77dff82", r"share their learning-rate schedule",
           edits=[Edit("f975b22b", "train_grid_run(placement, 3e-3, WARMUPS[-1], seed)",
                       'train_grid_run(placement, 3e-3 if placement == "pre" else 1e-3, WARMUPS[-1], seed)')], skip=_TO_GRID),
    Mutant("block_always_pre_ln", "Post-LN itself: Block.forward always runs the Pre-LN path (the pre_norm flag stays False "
           "for the 'post' model, so the structure asserts still pass)",
           "e77dff82", r"Post-LN in none|median gap",
           patches=[Patch("f975b22b", src_patch("utils.transformer", "Block.forward", [("if self.pre_norm:", "if True:")]))],
           skip=_TO_GRID),
    Mutant("post_ln_drops_norm2", "a control that differs in the placement only: the Post-LN block forgets its second "
           "Add & Norm (no LayerNorm after the FFN sum, so the Post-LN model no longer ends in a LayerNorm before W_U)",
           "e77dff82", r"Post-LN in none|median gap|not Post-LN|LayerNorm",
           patches=[Patch("f975b22b", src_patch("utils.transformer", "Block.forward", [
               ("x = self.norm2(x + self.dropout(self.ffn(x)))", "x = x + self.dropout(self.ffn(x))")]))],
           skip=_TO_GRID),
    # ---------------- c918571e equal_budget_comparison
    Mutant("baselines_double_budget", "the equal budget: the baselines train twice the Transformer's steps",
           "c918571e", r"training tokens",
           edits=[Edit("b4cd0f42", "BASELINE_BUDGET = (lm_train_config.steps, recipe.batch_size)",
                       "BASELINE_BUDGET = (2 * lm_train_config.steps, recipe.batch_size)")], skip=_TO_TABLE),
    Mutant("baselines_tiny_lr", "real baselines: fit_by_training's default ignores BASELINE_LRS and trains every baseline "
           "at lr 3e-4 (BASELINE_LRS, which `measured` reads, is unchanged)",
           "c918571e", r"baseline should beat the unigram|should beat the|beats the Transformer",
           edits=[Edit("b4cd0f42", "def fit_by_training(make_model, lrs=BASELINE_LRS)", "def fit_by_training(make_model, lrs=[3e-4])")],
           skip=_TO_TABLE),
    Mutant("baselines_keep_worse_lr", "real baselines: each baseline keeps the learning rate with the HIGHER final loss",
           "c918571e", r"baseline should beat the unigram|should beat the|beats the Transformer",
           edits=[Edit("b4cd0f42", "_, lr, model, tokens = min(fitted, key=lambda item: item[0])",
                       "_, lr, model, tokens = max(fitted, key=lambda item: item[0])")], skip=_TO_TABLE),
    Mutant("transformer_unmasked", "a fair Transformer: the LM is trained and scored without the causal mask, so its "
           "perplexity is bought by reading the next character",
           "c918571e", r"beats the Transformer|should beat",
           edits=[Edit("041dab64", "lm = TransformerLM(lm_config).to(device)",
                       'lm = TransformerLM(TransformerConfig(**{**vars(lm_config), "causal": False})).to(device)')],
           skip=_TO_TABLE),
]
