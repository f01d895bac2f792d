"""Mutants of notebook 07: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant

NOTEBOOK = "07_transformer_lm.ipynb"

# cell ids of notebook 07
FFN, GELU, RESIDUAL_SHOW, LAYERNORM = "7872952a", "d322a9fe", "c8be27cb", "fc0203d5"
PADDING_SHOW, PADDING_MEANS, TINY_SHOW, MISMATCH_SHOW = "86a5db08", "af7cfc81", "b08d33dd", "651c71d9"
GRADIENT_SHOW, GRID, GRID_SHOW = "ln_gradients_at_init", "f975b22b", "e77dff82"
BEFORE_NORMS = [FFN, GELU, RESIDUAL_SHOW, LAYERNORM]

MUTANTS = [
    Mutant(name="no_residual", removes="the residual connection: the 'residual' stack is a plain stack",
           target=RESIDUAL_SHOW, message=r"residual stack's first-layer gradient to be far larger",
           edits=[Edit(cell=RESIDUAL_SHOW, old="h = h + layer(h) if residual else layer(h)", new="h = layer(h)")],
           skip=[FFN, GELU]),
    Mutant(name="no_padding_added", removes="the padding: every batch has the same size as the pad-free one",
           target=PADDING_SHOW, message=r"BatchNorm should drift with padding",
           edits=[Edit(cell=PADDING_SHOW, old="drift = padding_drift(sentence, pad_lengths)",
                       new="drift = padding_drift(sentence, [0] * len(pad_lengths))")],
           skip=BEFORE_NORMS),
    Mutant(name="large_batch", removes="the tiny batch: 64 tokens per feature instead of 2",
           target=TINY_SHOW, message=r"BatchNorm on two tokens per feature should give",
           edits=[Edit(cell=TINY_SHOW, old="two_tokens = torch.randn(1, 2, 8) * 3 + 5",
                       new="two_tokens = torch.randn(1, 64, 8) * 3 + 5")],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS]),
    Mutant(name="no_running_statistics", removes="the running averages: BatchNorm uses batch statistics in eval mode too",
           target=MISMATCH_SHOW, message=r"running averages should give other outputs",
           edits=[Edit(cell=MISMATCH_SHOW, old="train_eval_gap(nn.BatchNorm1d(8), new_input",
                       new="train_eval_gap(nn.BatchNorm1d(8, track_running_stats=False), new_input")],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY_SHOW]),
    Mutant(name="gradients_post_is_pre", removes="Post-LN: both probes are Pre-LN models",
           target=GRADIENT_SHOW, message=r"Post-LN's last-layer gradient should grow",
           edits=[Edit(cell=GRADIENT_SHOW, old="norm_placement=placement))", new='norm_placement="pre"))')],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY_SHOW, MISMATCH_SHOW]),
    Mutant(name="gradients_course_init", removes="the Xavier initialisation of Xiong et al.'s analysis",
           target=GRADIENT_SHOW, message=r"Post-LN's last-layer gradient should grow",
           edits=[Edit(cell=GRADIENT_SHOW, old="xavier_initialise(probe_model)  # the 2017 paper's initialisation",
                       new="pass")],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY_SHOW, MISMATCH_SHOW]),
    Mutant(name="grid_post_is_pre", removes="Post-LN: every grid model is Pre-LN",
           target=GRID_SHOW, message=r"even with warm-up, Post-LN should lag Pre-LN",
           edits=[Edit(cell=GRID, old="norm_placement=placement)", new='norm_placement="pre")')],
           skip=BEFORE_NORMS + [PADDING_SHOW, PADDING_MEANS, TINY_SHOW, MISMATCH_SHOW, GRADIENT_SHOW]),
]
