"""Second red team's mutants of 07_transformer_lm.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 21 of 24 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "07_transformer_lm.ipynb"

S_RES = ["7872952a", "d322a9fe"]
S_NORM = S_RES + ["residual_stacks", "c8be27cb", "fc0203d5"]
S_PAD = S_NORM
S_BN = S_NORM + ["86a5db08", "af7cfc81", "b08d33dd"]
S_LNGRAD = S_BN + ["651c71d9"]
S_GRID = S_LNGRAD + ["ln_gradients_at_init"]
S_TABLE = S_GRID + ["f975b22b", "e77dff82", "5acf1e30", "e9fbb684", "scratch_sampler", "block_diagram", "5ffb58c1",
                    "scratch_generates", "a998e0b3", "attention_view"]

MUTANTS = [
    # ---- c8be27cb residuals_keep_gradients
    Mutant("residual_identity_detached", "the identity path carries no gradient (h.detach() + F(h)): same forward, no gradient highway",
           "c8be27cb", ".", edits=[Edit("residual_stacks", "h = h + layer(h) if residual", "h = h.detach() + layer(h) if residual")],
           skip=S_RES),
    Mutant("residual_leaky_identity", "the skip path is scaled by 0.5 (x -> 0.5 x + F(x)): no identity path", "c8be27cb", ".",
           edits=[Edit("residual_stacks", "h = h + layer(h) if residual", "h = 0.5 * h + layer(h) if residual")], skip=S_RES),
    Mutant("residual_control_not_rescaled", "the variance-preserving control is not rescaled (it is the default plain stack again)",
           "c8be27cb", ".", edits=[Edit("residual_stacks", "layer.down.weight.mul_(scale), layer.down.bias.mul_(scale)",
                                        "layer.down.weight.mul_(1.0), layer.down.bias.mul_(1.0)")], skip=S_RES),
    Mutant("residual_branches_silent", "the residual branches are nearly silent (down weights x1e-3): ratio 1 for a trivial reason",
           "c8be27cb", ".", edits=[Edit("residual_stacks", "layers = [FeedForward(config) for _ in range(depth)]  # PyTorch's default init",
                                        "layers = [FeedForward(config) for _ in range(depth)]  # PyTorch's default init\n"
                                        "    if residual:\n        with torch.no_grad():\n"
                                        "            for _l in layers: _l.down.weight.mul_(1e-3), _l.down.bias.mul_(1e-3)")], skip=S_RES),
    Mutant("residual_replaced_by_renormalised_plain", "no identity path: the 'residual' stack is a plain stack whose every output is rescaled to the input's std",
           "c8be27cb", ".", edits=[Edit("residual_stacks", "h = h + layer(h) if residual else layer(h)",
                                        "h = (lambda o: o * x.std() / o.std())(layer(h)) if residual else layer(h)")], skip=S_RES),
    # ---- 86a5db08 padding_pollutes_batchnorm
    Mutant("pad_batch_stats_ignore_padding", "the 'BatchNorm' statistics leave the padding out (no pollution)", "86a5db08", ".",
           edits=[Edit("86a5db08", "mean, variance = batch.reshape(-1, 8).mean(0), batch.reshape(-1, 8).var(0, unbiased=False)",
                       "mean, variance = masked_batch_statistics(batch, real)")], skip=S_PAD),
    Mutant("pad_control_mask_off_by_one", "the control's mask counts the first padding position as real", "86a5db08", ".",
           edits=[Edit("86a5db08", "real[:, 6:] = False", "real[:, 7:] = False")], skip=S_PAD),
    Mutant("pad_layernorm_over_positions", "'LayerNorm' normalises each feature over the positions (padding included), not each token over its features",
           "86a5db08", ".", edits=[Edit("86a5db08", "return F.layer_norm(batch, (8,))[0, :6]",
                                        "return F.layer_norm(batch.transpose(1, 2), (batch.shape[1],)).transpose(1, 2)[0, :6]")], skip=S_PAD),
    Mutant("pad_layernorm_is_real_token_batchnorm", "the 'LayerNorm' curve is BatchNorm over the real tokens (still normalises across tokens)",
           "86a5db08", ".", edits=[Edit("86a5db08", "return F.layer_norm(batch, (8,))[0, :6]",
                                        "mean, variance = masked_batch_statistics(batch, real)\n        return ((batch - mean) / torch.sqrt(variance + 1e-5))[0, :6]")],
           skip=S_PAD),
    # ---- 651c71d9 batchnorm_train_eval_mismatch
    Mutant("bn_no_distribution_shift", "the new input comes from the training distribution: running averages = its statistics",
           "651c71d9", ".", edits=[Edit("651c71d9", "new_input = torch.randn(4, 10, 8) * 3 - 1", "new_input = torch.randn(4, 10, 8) * 2 + 1")],
           skip=S_BN),
    Mutant("bn_eval_never_set", "norm.eval() replaced by norm.train(): both outputs use the batch statistics", "651c71d9", ".",
           edits=[Edit("651c71d9", "    norm.eval()\n", "    norm.train()\n")], skip=S_BN),
    Mutant("bn_momentum_one", "momentum=1: the running averages become the new batch's own statistics", "651c71d9", ".",
           edits=[Edit("651c71d9", '{"BatchNorm": nn.BatchNorm1d(8),', '{"BatchNorm": nn.BatchNorm1d(8, momentum=1.0),')], skip=S_BN),
    Mutant("bn_layernorm_is_batchnorm_without_running_stats", "the 'LayerNorm' entry is a BatchNorm without running averages (normalises across tokens)",
           "651c71d9", ".", edits=[Edit("651c71d9", '"LayerNorm": nn.LayerNorm(8)}', '"LayerNorm": nn.BatchNorm1d(8, track_running_stats=False)}')],
           skip=S_BN),
    # ---- ln_gradients_at_init post_ln_gradients_grow_with_depth
    Mutant("lngrad_xavier_skipped", "the Xavier re-initialisation never runs (course init, std 0.02)", "ln_gradients_at_init", ".",
           edits=[Edit("ln_gradients_at_init", 'if init == "xavier":', 'if init == "never":')], skip=S_LNGRAD),
    Mutant("lngrad_post_built_as_pre", "the 'post' models are built Pre-LN", "ln_gradients_at_init", ".",
           edits=[Edit("ln_gradients_at_init", "norm_placement=placement))", 'norm_placement="pre"))')], skip=S_LNGRAD),
    Mutant("lngrad_depth_ignored", "every model has 16 layers whatever DEPTHS says: depth not varied", "ln_gradients_at_init", ".",
           edits=[Edit("ln_gradients_at_init", "n_layer=depth,", "n_layer=DEPTHS[-1],")], skip=S_LNGRAD),
    Mutant("lngrad_both_pre_init_confound", "both models Pre-LN; the 'post' one gets Xavier weights, the 'pre' one the course init (placement removed, init differs)",
           "ln_gradients_at_init", ".", edits=[Edit("ln_gradients_at_init", "norm_placement=placement))", 'norm_placement="pre"))'),
                                               Edit("ln_gradients_at_init", 'if init == "xavier":', 'if init == "xavier" and placement == "post":')],
           skip=S_LNGRAD),
    # ---- e77dff82 post_ln_lags_on_the_grid
    Mutant("grid_trains_pre_only", "the grid trains a Pre-LN model whatever the placement (the asserted models are built separately)",
           "e77dff82", ".", edits=[Edit("f975b22b", "    model = make_grid_model(placement)\n", '    model = make_grid_model("pre")\n')],
           skip=S_GRID),
    Mutant("grid_post_lower_lr", "Post-LN trained at a 3x smaller learning rate for seeds 1-2 (a schedule confound)", "e77dff82", ".",
           edits=[Edit("f975b22b", "train_grid_run(placement, 3e-3, WARMUPS[-1], seed)",
                       'train_grid_run(placement, 3e-3 if placement == "pre" else 1e-3, WARMUPS[-1], seed)')], skip=S_GRID),
    Mutant("grid_post_is_handicapped_pre", "the 'post' runs train a Pre-LN model whose blocks are frozen: no Post-LN anywhere, a lag for another reason",
           "e77dff82", ".", edits=[Edit("f975b22b", "    model = make_grid_model(placement)\n",
                                        '    model = make_grid_model("pre")\n    if placement == "post":\n'
                                        '        [p.requires_grad_(False) for p in model.blocks.parameters()]\n')], skip=S_GRID),
    # ---- c918571e equal_budget_comparison
    Mutant("table_transformer_untrained", "the table scores a freshly initialised Transformer", "c918571e", ".",
           edits=[Edit("b4cd0f42", 'families["Transformer (this notebook)"] = lm', 'families["Transformer (this notebook)"] = TransformerLM(lm_config)')],
           skip=S_TABLE),
    Mutant("table_baselines_third_budget", "the baselines train a third of the Transformer's steps (unequal budget)", "c918571e", ".",
           edits=[Edit("b4cd0f42", "BASELINE_BUDGET = (lm_train_config.steps, recipe.batch_size)",
                       "BASELINE_BUDGET = (lm_train_config.steps // 3, recipe.batch_size)")], skip=S_TABLE),
    Mutant("table_transformer_sees_future", "the Transformer is built without the causal mask (reads the next character)", "c918571e", ".",
           edits=[Edit("041dab64", "lm = TransformerLM(lm_config).to(device)",
                       'lm = TransformerLM(__import__("dataclasses").replace(lm_config, causal=False)).to(device)')], skip=S_TABLE),
    Mutant("table_rnn_gru_crippled", "the RNN and GRU baselines get 4 hidden units (baselines never in question)", "c918571e", ".",
           edits=[Edit("b4cd0f42", 'RNNConfig(V, d_embed=32, d_hidden=128, cell="tanh")', 'RNNConfig(V, d_embed=32, d_hidden=4, cell="tanh")'),
                  Edit("b4cd0f42", 'RNNConfig(V, d_embed=32, d_hidden=128, cell="gru")', 'RNNConfig(V, d_embed=32, d_hidden=4, cell="gru")')],
           skip=S_TABLE),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['bn_eval_never_set', 'bn_momentum_one', 'bn_no_distribution_shift', 'grid_post_is_handicapped_pre', 'grid_post_lower_lr', 'grid_trains_pre_only', 'lngrad_both_pre_init_confound', 'lngrad_depth_ignored', 'lngrad_post_built_as_pre', 'lngrad_xavier_skipped', 'pad_batch_stats_ignore_padding', 'pad_control_mask_off_by_one', 'pad_layernorm_over_positions', 'residual_branches_silent', 'residual_control_not_rescaled', 'residual_identity_detached', 'residual_leaky_identity', 'residual_replaced_by_renormalised_plain', 'table_baselines_third_budget', 'table_transformer_sees_future', 'table_transformer_untrained']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
