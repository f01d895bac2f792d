"""Mutants of notebook 05: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "05_attention.ipynb"

# cell ids of notebook 05
VARIANCE, VARIANCE_SHOW, SCALE_SHOW = "868e99b1", "4650175e", "scale_training"
TRAIN, HEADS_SHOW, GRAM, TIED_SHOW = "376a9aa4", "06e796ed", "8b07a118", "tied_qk_training"
CAN_WIDGET, CAN_WIDGET_CHECK, CAN_SHOW = "10e895a0", "90ec215c", "can_states"

SELF_ONLY_ATTENTION = Patch(before=CAN_SHOW, code="""
import torch
import utils.attention_lm as _alm


def _self_only(T, device=None, offset=0):
    return torch.full((T, T), float("-inf"), device=device).fill_diagonal_(0.0)  # each token reads itself only


_alm.causal_mask = _self_only
""")

MUTANTS = [
    # ---- why divide by sqrt(d_k) (section 5)
    Mutant(name="scaled_scores_not_scaled", removes="the division by sqrt(d_k) in the 'scaled' scores",
           target=VARIANCE_SHOW, message=r"scaled scores keep variance about 1",
           edits=[Edit(cell=VARIANCE, old="scaled = raw / math.sqrt(width)", new="scaled = raw")]),
    Mutant(name="unit_length_vectors", removes="the growth: q and k entries of variance 1/d_k, so q.k has variance 1",
           target=VARIANCE_SHOW, message=r"Var\(q\.k\) grows like d_k",
           edits=[Edit(cell=VARIANCE, old="q = torch.randn(n_queries, width) + QK_MEAN  # (N, d_k)",
                       new="q = torch.randn(n_queries, width) / math.sqrt(width) + QK_MEAN  # (N, d_k)")]),
    Mutant(name="unscaled_run_is_scaled", removes="the missing scale: the 'unscaled' run divides by sqrt(d_k) too",
           target=SCALE_SHOW, message=r"unscaled attention at a large d_k should stall|variance of the unscaled scores",
           edits=[Edit(cell=SCALE_SHOW, old="n_head=1, scale=scale,", new="n_head=1, scale=True,")],
           skip=[VARIANCE, VARIANCE_SHOW]),
    # ---- heads attend differently (section 8)
    Mutant(name="heads_untrained", removes="training: the 'trained' model gets the untrained model's weights",
           target=HEADS_SHOW, message=r"every pair of trained heads",
           patches=[Patch(before=HEADS_SHOW, code="model.load_state_dict(untrained.state_dict())")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW]),
    Mutant(name="heads_share_parameters", removes="separate heads: every head gets head 0's query, key and value weights",
           target=HEADS_SHOW, message=r"every pair of trained heads",
           patches=[Patch(before=HEADS_SHOW, code="""
import torch
with torch.no_grad():
    _dh = model.config.d_model // model.config.n_head
    for _w in (model.w_q.weight, model.w_k.weight, model.w_v.weight):
        _w.copy_(_w[:_dh].repeat(model.config.n_head, 1))  # rows = output features, head by head
""")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW]),
    Mutant(name="heads_control_reads_text", removes="the control: the 'shuffled' model trains on the text in its order",
           target=HEADS_SHOW, message=r"the control has nothing to read",
           edits=[Edit(cell=HEADS_SHOW, old="shuffled_tokens = train_tokens[torch.randperm(len(train_tokens), generator=torch.Generator().manual_seed(SEED))]",
                       new="shuffled_tokens = train_tokens")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW]),
    # ---- why W_Q and W_K are separate (section 9)
    Mutant(name="tied_model_untied", removes="the tie: the 'tied' model gets its own W_K",
           target=TIED_SHOW, message=r"with W_K = W_Q the Gram matrix",
           edits=[Edit(cell=TIED_SHOW, old="tie_qk=tie,", new="tie_qk=False,")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, TRAIN, HEADS_SHOW]),
    Mutant(name="untied_model_tied", removes="separate matrices: the 'separate' model is tied as well",
           target=TIED_SHOW, message=r"separate W_Q, W_K learn to attend one step back",
           edits=[Edit(cell=TIED_SHOW, old="tie_qk=tie,", new="tie_qk=True,")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, TRAIN, HEADS_SHOW]),
    # ---- contextual vectors of "can" (section 10)
    Mutant(name="attention_reads_only_itself", removes="the context: each position attends to itself only",
           target=CAN_SHOW, message=r"the noun 'can's should be far more alike",
           patches=[SELF_ONLY_ATTENTION],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, HEADS_SHOW, GRAM, TIED_SHOW, CAN_WIDGET_CHECK]),
    Mutant(name="can_control_not_shuffled", removes="the control: the 'shuffled' word model trains on the words in their order",
           target=CAN_SHOW, message=r"unlike in the model trained on shuffled words",
           edits=[Edit(cell=CAN_SHOW, old="shuffled_words = word_ids[torch.randperm(len(word_ids), generator=torch.Generator().manual_seed(SEED))]",
                       new="shuffled_words = word_ids")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, HEADS_SHOW, GRAM, TIED_SHOW, CAN_WIDGET_CHECK]),
    Mutant(name="word_model_untrained", removes="training: the word model keeps its initial weights",
           target=CAN_SHOW, message=r"the noun 'can's should be far more alike",
           edits=[Edit(cell=CAN_SHOW, old="train(word_model, word_batches,", new="(word_model, word_batches,")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, HEADS_SHOW, GRAM, TIED_SHOW, CAN_WIDGET_CHECK]),
    Mutant(name="word_order_shuffled", removes="the senses: the training words are shuffled, so no word before 'can' predicts what follows",
           target=CAN_SHOW, message=r"the noun 'can's should be far more alike",
           edits=[Edit(cell=CAN_SHOW, old="batch_sampler(word_ids, 32, 24,",
                       new="batch_sampler(word_ids[torch.randperm(len(word_ids))], 32, 24,")],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW, HEADS_SHOW, GRAM, TIED_SHOW, CAN_WIDGET_CHECK]),
    # ---- the second red team's survivors (stop 38), mended in the shows
    Mutant(name="model_scales_by_d_k", removes="the right scale: the model divides the scores by d_k instead of sqrt(d_k)",
           target=SCALE_SHOW, message=r"variance of the scaled scores",
           patches=[Patch(before=SCALE_SHOW, code=(
               "import types, utils.attention_lm as _m\n"
               "_m.math = types.SimpleNamespace(sqrt=lambda x: x)\n"
               "print('PATCH model_scales_by_d_k active')\n"))],
           skip=[VARIANCE, VARIANCE_SHOW]),
    Mutant(name="trained_heads_are_the_control", removes="reading the text: the 'trained' heads are those of the model trained on shuffled characters",
           target=HEADS_SHOW, message=r"trained on the text",
           edits=[Edit(cell=HEADS_SHOW, old='(("trained", model), ("shuffled text", shuffled_model)',
                       new='(("trained", shuffled_model), ("shuffled text", shuffled_model)')],
           skip=[VARIANCE, VARIANCE_SHOW, SCALE_SHOW]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("05")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as adopted5  # noqa: E402

MUTANTS += adopted5("05")  # the third red team's killed mutants (slow tier)

from tests.mutants.redteam9 import adopted as adopted9  # noqa: E402

MUTANTS += adopted9("05")  # the seventh red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("05")  # the eighth red team's mutants (slow tier)
