"""Mutants of notebook 04: each removes the cause of one show (scale, saturation, clipping, gates)."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "04_recurrent_networks.ipynb"

TRAIN, COMPARE, GRADIENTS, CLIPPING, RECALL, RECALL_GRAD = "cell-06", "cell-07", "cell-10", "cell-13", "cell-15", "recall-grad"
BPTT_DEF = "bptt-def"
TANH_STEP = "h = torch.tanh(rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)"

MUTANTS = [
    Mutant(name="recurrent_scale_ignored", removes="the scale s of W_hh: every model gets a plain rotation",
           target=GRADIENTS, message=r"gradient should vanish",
           edits=[Edit(cell=BPTT_DEF, old="rnn.cell.weight_hh.copy_(scale * rotation.to(device))",
                       new="rnn.cell.weight_hh.copy_(rotation.to(device))")],
           skip=[TRAIN, COMPARE]),
    Mutant(name="no_saturation", removes="tanh's saturation: the written-out recurrence is linear",
           target=GRADIENTS, message=r"tanh saturates",
           edits=[Edit(cell=BPTT_DEF, old=TANH_STEP, new=TANH_STEP.replace("torch.tanh(", "("))],
           skip=[TRAIN, COMPARE]),
    Mutant(name="clipping_off", removes="the clipping: both runs take unclipped steps",
           target=CLIPPING, message=r"clipping should keep the loss bounded",
           edits=[Edit(cell=CLIPPING, old="grad_clip=clip,", new="grad_clip=None,")],
           skip=[TRAIN, COMPARE, GRADIENTS]),
    Mutant(name="gru_is_plain", removes="the gates: the 'GRU' is a plain tanh RNN",
           target=RECALL, message=r"GRU should learn the recall task",
           edits=[Edit(cell=RECALL, old="d_hidden=32, cell=kind)", new='d_hidden=32, cell="tanh")')],
           skip=[TRAIN, COMPARE, GRADIENTS, CLIPPING]),
    Mutant(name="plain_rnn_untrained", removes="training of the plain RNN: one step, so it has not even learnt which symbols are keys",
           target=RECALL, message=r"plain RNN should stay near chance|at least learn that a key follows",
           edits=[Edit(cell=RECALL, old="TrainConfig(steps=RECALL_STEPS,", new='TrainConfig(steps=RECALL_STEPS if kind == "gru" else 1,')],
           skip=[TRAIN, COMPARE, GRADIENTS, CLIPPING]),
    Mutant(name="gru_gradient_untrained", removes="training of the GRU whose gradient is measured: a fresh one",
           target=RECALL_GRAD, message=r"trained GRU's gradient should reach the key|GRU measured here should be the one that recalls",
           patches=[Patch(before=RECALL_GRAD, code='recall_models["gru"] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, '
                                                   'd_hidden=32, cell="gru")).to(device)')],
           skip=[TRAIN, COMPARE, GRADIENTS, CLIPPING]),
    Mutant(name="gradient_of_the_plain_rnn", removes="the gates: the trained 'GRU' measured is the plain RNN",
           target=RECALL_GRAD, message=r"GRU's gradient should reach the key|GRU measured here should be the one that recalls",
           patches=[Patch(before=RECALL_GRAD, code='recall_models["gru"] = recall_models["tanh"]')],
           skip=[TRAIN, COMPARE, GRADIENTS, CLIPPING]),
]

TBPTT = "tbptt"
MUTANTS.append(
    Mutant(name="state_never_carried", removes="the carried state: every chunk starts from h = 0",
           target=TBPTT, message=r"state carried across chunks|use its carried state",
           edits=[Edit(cell="tbptt-def", old="h = last.detach() if carry else torch.zeros_like(last)", new="h = torch.zeros_like(last)")],
           skip=[TRAIN, COMPARE]))

RNN_TIMING, CHAIN_TIMING = "cell-18", "cell-20"
BEFORE_TIMING = ["cell-04", TRAIN, COMPARE, "tbptt-def", TBPTT, BPTT_DEF, GRADIENTS, CLIPPING, RECALL, RECALL_GRAD]
MUTANTS += [
    Mutant(name="rnn_length_fixed", removes="the sequence length: the RNN is always timed on the shortest sequences",
           target=RNN_TIMING, message=r"grow in proportion to T",
           edits=[Edit(cell=RNN_TIMING, old="training_step(layer, timing_inputs[T])",
                       new='training_step(layer, timing_inputs[T if name == "attention" else TIMING_LENGTHS[0]])')],
           skip=BEFORE_TIMING),
    Mutant(name="chain_without_state", removes="the dependency: each 'chained' step reads its own input, not the previous state",
           target=CHAIN_TIMING, message=r"depend on its first input",
           edits=[Edit(cell=CHAIN_TIMING, old="h = torch.tanh(h @ W.T + x[:, t])  # (B, D)",
                       new="h = torch.tanh(x[:, t] @ W.T + x[:, t])  # (B, D)")],
           skip=BEFORE_TIMING),
    Mutant(name="chain_merged", removes="the chain: the 'chained' version is the merged product",
           target=CHAIN_TIMING, message=r"depend on its first input",
           edits=[Edit(cell=CHAIN_TIMING, old="def chained(x: torch.Tensor) -> torch.Tensor:\n",
                       new="def chained(x: torch.Tensor) -> torch.Tensor:\n    return all_at_once(x)\n")],
           skip=BEFORE_TIMING),
    Mutant(name="independent_steps_merged", removes="the step-by-step loop: the independent steps are timed merged",
           target=CHAIN_TIMING, message=r"cost about as much as the chain",
           edits=[Edit(cell=CHAIN_TIMING, old='"step by step": step_by_step,', new='"step by step": all_at_once,')],
           skip=BEFORE_TIMING),
]


# The second red team's five survivors (stop 38), re-created here and killed by the controls added since.
from tests.mutants.redteam2.r04 import POSITIONWISE as POSITION_WISE  # noqa: E402  (the red team's own definition)
MUTANTS += [
    Mutant(name="tbptt_eval_resets_state", removes="the carried state at evaluation: the carrying model is scored with its state reset",
           target=TBPTT, message=r"use its carried state",
           edits=[Edit(cell=TBPTT, old="tbptt_pass(rnn, x_val_lanes, y_val_lanes, TBPTT_CHUNK, carry)",
                       new="tbptt_pass(rnn, x_val_lanes, y_val_lanes, TBPTT_CHUNK, False)")],
           skip=[TRAIN, COMPARE]),
    Mutant(name="vanishing_measured_untrained", removes="training: the 'trained RNN' whose gradient is measured is a fresh one",
           target=GRADIENTS, message=r"trained RNN should be in the vanishing regime|RNN measured should be the trained one",
           patches=[Patch(before=GRADIENTS, code='model = RNNLM(RNNConfig(V, d_embed=D_EMBED, d_hidden=D_HIDDEN, cell="tanh")).to(device)')],
           skip=[TRAIN, COMPARE, "tbptt-def", TBPTT]),
    Mutant(name="clipping_replaced_by_small_lr", removes="clipping, replaced by a smaller learning rate: the 'clipped' run is unclipped SGD at lr 0.03",
           target=CLIPPING, message=r"same learning rate",
           edits=[Edit(cell=CLIPPING, old='lr=CLIP_LR, schedule="constant", grad_clip=clip',
                       new='lr=CLIP_LR if clip is None else 0.03, schedule="constant", grad_clip=None')],
           skip=[TRAIN, COMPARE, "tbptt-def", TBPTT, GRADIENTS]),
    Mutant(name="rnn_timed_is_position_wise", removes="the recurrence: the timed 'RNN' is a position-wise layer with no state",
           target=RNN_TIMING, message=r"depend on its first input|several times the same products",
           patches=[Patch(before=RNN_TIMING, code=POSITION_WISE)],
           edits=[Edit(cell=RNN_TIMING, old='"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', new='"RNN": _PositionWise(WIDTH)')],
           skip=BEFORE_TIMING),
    Mutant(name="chain_timed_is_independent", removes="the dependency in what is timed: the timed 'chained' is the independent loop",
           target=CHAIN_TIMING, message=r"depend on its first input",
           edits=[Edit(cell=CHAIN_TIMING, old='ways = {"chained": chained,', new='ways = {"chained": step_by_step,')],
           skip=BEFORE_TIMING),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("04")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as adopted_rt5  # noqa: E402

MUTANTS += adopted_rt5("04")  # the third red team's killed mutants (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("04")  # the fifth red team's mutants (slow tier)

from tests.mutants.redteam8 import adopted as adopted8  # noqa: E402

MUTANTS += adopted8("04")  # the sixth red team's mutants (slow tier)

from tests.mutants.redteam9 import adopted as adopted9  # noqa: E402

MUTANTS += adopted9("04")  # the seventh red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("04")  # the eighth red team's mutants (slow tier)
