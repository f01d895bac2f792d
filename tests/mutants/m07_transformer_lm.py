"""Mutants of notebook 07: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant

NOTEBOOK = "07_transformer_lm.ipynb"

# cell ids of notebook 07
FFN, GELU, RESIDUAL_STACKS, RESIDUAL_SHOW, LAYERNORM = "7872952a", "d322a9fe", "residual_stacks", "c8be27cb", "fc0203d5"
PADDING_SHOW, PADDING_MEANS, TINY, MISMATCH_SHOW = "86a5db08", "af7cfc81", "b08d33dd", "651c71d9"
GRADIENT_SHOW, GRID, GRID_SHOW = "ln_gradients_at_init", "f975b22b", "e77dff82"
MASKS, FUTURE, DIAGRAM, SCRATCH_GENERATES = "5acf1e30", "e9fbb684", "block_diagram", "scratch_generates"
UNEMBEDDING, ATTENTION_VIEW = "a998e0b3", "attention_view"
TABLE, TABLE_SHOW = "b4cd0f42", "c918571e"
BEFORE_NORMS = [FFN, GELU, RESIDUAL_STACKS, RESIDUAL_SHOW, LAYERNORM]
NORMS = [PADDING_SHOW, PADDING_MEANS, TINY, MISMATCH_SHOW]
BEFORE_TABLE = BEFORE_NORMS + NORMS + [GRADIENT_SHOW, GRID, GRID_SHOW, MASKS, FUTURE, DIAGRAM, SCRATCH_GENERATES, UNEMBEDDING,
                                       ATTENTION_VIEW]

MUTANTS = [
    # residual show: the identity path, a plain stack at the default init, a variance-preserving plain stack
    Mutant(name="no_residual", removes="the residual connection: the 'residual' stack is a plain stack",
           target=RESIDUAL_SHOW, message=r"with residuals the first layer's gradient should be like the last",
           edits=[Edit(cell=RESIDUAL_STACKS, old="h = h + layer(h) if residual else layer(h)", new="h = layer(h)")],
           skip=[FFN, GELU]),
    Mutant(name="control_not_variance_preserving", removes="the control's rescaling: the 'variance-preserving' stack keeps the default init",
           target=RESIDUAL_SHOW, message=r"variance-preserving plain stack should keep its gradients",
           edits=[Edit(cell=RESIDUAL_SHOW, old="dict(residual=False, preserve_variance=True)", new="dict(residual=False)")],
           skip=[FFN, GELU]),
    Mutant(name="plain_stack_he_init", removes="the shrinking default init of the plain stack (the red team's He-init probe)",
           target=RESIDUAL_SHOW, message=r"without residuals, at PyTorch's default init, the first layer's gradient should vanish",
           edits=[Edit(cell=RESIDUAL_SHOW, old='"plain, default init": dict(residual=False)',
                       new='"plain, default init": dict(residual=False, preserve_variance=True)')],
           skip=[FFN, GELU]),
    Mutant(name="silent_branches", removes="the branches: the residual stack adds 0 * F(h), an identity",
           target=RESIDUAL_SHOW, message=r"the residual branches should change the stream",
           edits=[Edit(cell=RESIDUAL_STACKS, old="h = h + layer(h) if residual else layer(h)",
                       new="h = h + 0 * layer(h) if residual else layer(h)")],
           skip=[FFN, GELU]),
    # padding show
    Mutant(name="no_padding_added", removes="the padding: every batch has the same size as the pad-free one",
           target=PADDING_SHOW, message=r"BatchNorm should drift with padding",
           edits=[Edit(cell=PADDING_SHOW, old="for pad in pad_lengths]", new="for pad in [0] * len(pad_lengths)]")],
           skip=BEFORE_NORMS),
    Mutant(name="control_counts_padding", removes="the control's mask: its statistics include the padding too",
           target=PADDING_SHOW, message=r"without padding in the statistics nothing may move",
           edits=[Edit(cell=PADDING_SHOW, old="real[:, 6:] = False  # the padding positions", new="pass")],
           skip=BEFORE_NORMS),
    # train/inference mismatch show
    Mutant(name="no_running_statistics", removes="the running averages: BatchNorm uses batch statistics in eval mode too",
           target=MISMATCH_SHOW, message=r"running averages should differ from the new batch's statistics",
           edits=[Edit(cell=MISMATCH_SHOW, old='"BatchNorm": nn.BatchNorm1d(8),',
                       new='"BatchNorm": nn.BatchNorm1d(8, track_running_stats=False),')],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY]),
    Mutant(name="new_input_like_training", removes="the shift: the new batch comes from the training distribution",
           target=MISMATCH_SHOW, message=r"running averages should differ|running averages should move the outputs",
           edits=[Edit(cell=MISMATCH_SHOW, old="new_input = torch.randn(4, 10, 8) * 3 - 1",
                       new="new_input = torch.randn(4, 10, 8) * 2 + 1")],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY]),
    # Post-LN gradients at initialisation
    Mutant(name="gradients_post_is_pre", removes="Post-LN: both probes are Pre-LN models",
           target=GRADIENT_SHOW, message=r"Post-LN's last-layer gradient should grow",
           edits=[Edit(cell=GRADIENT_SHOW, old="norm_placement=placement))", new='norm_placement="pre"))')],
           skip=BEFORE_NORMS + NORMS),
    Mutant(name="gradients_course_init", removes="the Xavier initialisation of Xiong et al.'s analysis",
           target=GRADIENT_SHOW, message=r"Post-LN's last-layer gradient should grow",
           edits=[Edit(cell=GRADIENT_SHOW, old="xavier_initialise(probe_model)  # the 2017 paper's initialisation",
                       new="pass")],
           skip=BEFORE_NORMS + NORMS),
    # the learning-rate grid
    Mutant(name="grid_post_is_pre", removes="Post-LN: every trained grid model is Pre-LN",
           target=GRID_SHOW, message=r"Post-LN in none",
           edits=[Edit(cell=GRID, old="    model = make_grid_model(placement)", new='    model = make_grid_model("pre")')],
           skip=BEFORE_NORMS + NORMS + [GRADIENT_SHOW]),
    Mutant(name="post_lr_divided", removes="the equal schedule: Post-LN trains at lr / 100 (the red team's survivor)",
           target=GRID_SHOW, message=r"must share their learning-rate schedule",
           edits=[Edit(cell=GRID, old="config = TrainConfig(steps=GRID_STEPS, lr=lr,",
                       new='config = TrainConfig(steps=GRID_STEPS, lr=lr if placement == "pre" else lr / 100,')],
           skip=BEFORE_NORMS + NORMS + [GRADIENT_SHOW]),
    Mutant(name="pre_ln_without_final_norm", removes="Pre-LN's final LayerNorm (the red team's survivor)",
           target=GRID_SHOW, message=r"the Pre-LN model is not Pre-LN",
           edits=[Edit(cell=GRID, old="    return TransformerLM(config)",
                       new="    model = TransformerLM(config)\n    model.final_norm = nn.Identity()\n    return model")],
           skip=BEFORE_NORMS + NORMS + [GRADIENT_SHOW]),
    # the equal-budget comparison
    Mutant(name="baselines_shorter_budget", removes="the equal budget: the baselines train a quarter of the Transformer's steps",
           target=TABLE_SHOW, message=r"every neural model should see the Transformer's",
           edits=[Edit(cell=TABLE, old="BASELINE_BUDGET = (lm_train_config.steps, recipe.batch_size)",
                       new="BASELINE_BUDGET = (lm_train_config.steps // 4, recipe.batch_size)")],
           skip=BEFORE_TABLE),
    Mutant(name="baselines_keep_worse_rate", removes="the learning-rate choice: each baseline keeps its worse rate",
           target=TABLE_SHOW,  # the realness check of the baselines (a weaker RNN) may fail first
           message=r"fixed-window MLP .* beats the Transformer|baseline should beat the unigram model by at least",
           edits=[Edit(cell=TABLE, old="_, lr, model, tokens = min(fitted", new="_, lr, model, tokens = max(fitted")],
           skip=BEFORE_TABLE),
]

# The second red team's survivors (stop 38), mended: the baselines must be real, and the LayerNorm shows tell per-token
# normalisation from a BatchNorm that leaves out the padding or keeps no running statistics.
MUTANTS += [
    Mutant(name="rnn_gru_four_hidden_units", removes="real recurrent baselines: the RNN and the GRU get 4 hidden units (red team 2)",
           target=TABLE_SHOW, message=r"baseline should beat the unigram model by at least",
           edits=[Edit(cell=TABLE, old='RNNConfig(V, d_embed=32, d_hidden=128, cell="tanh")',
                       new='RNNConfig(V, d_embed=32, d_hidden=4, cell="tanh")'),
                  Edit(cell=TABLE, old='RNNConfig(V, d_embed=32, d_hidden=128, cell="gru")',
                       new='RNNConfig(V, d_embed=32, d_hidden=4, cell="gru")')],
           skip=BEFORE_TABLE),
    Mutant(name="layernorm_is_real_token_batchnorm",
           removes="per-token normalisation: the 'LayerNorm' curve is a BatchNorm over the real tokens (red team 2)",
           target=PADDING_SHOW, message=r"LayerNorm normalises each token by itself",
           edits=[Edit(cell=PADDING_SHOW, old="return F.layer_norm(batch, (8,))[0, :6]",
                       new="mean, variance = masked_batch_statistics(batch, real)\n"
                           "        return ((batch - mean) / torch.sqrt(variance + 1e-5))[0, :6]")],
           skip=BEFORE_NORMS),
    Mutant(name="layernorm_is_batchnorm_without_running_stats",
           removes="per-token normalisation: the 'LayerNorm' is a BatchNorm without running statistics (red team 2)",
           target=MISMATCH_SHOW, message=r"LayerNorm normalises each token by itself",
           edits=[Edit(cell=MISMATCH_SHOW, old='"LayerNorm": nn.LayerNorm(8)}',
                       new='"LayerNorm": nn.BatchNorm1d(8, track_running_stats=False)}')],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("07")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("07")  # the fifth red team's mutants (slow tier)
