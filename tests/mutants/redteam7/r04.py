"""Red team A: mutants of notebook 04 (recurrent networks)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "04_recurrent_networks.ipynb"

NOOP = "pass  # baseline: no change\n"
SKIP_TBPTT = ["cell-06", "cell-07"]
SKIP_10 = ["cell-07", "tbptt-def", "tbptt"]
SKIP_10_NOTRAIN = ["cell-06"] + SKIP_10
SKIP_13 = ["cell-06", "cell-07", "tbptt-def", "tbptt", "cell-10"]
SKIP_15 = ["cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13"]
SKIP_18 = ["cell-04", "cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13", "cell-15",
           "recall-grad"]

STEP_BY_STEP = """
class StepByStep(torch.nn.Module):
    # The RNN layer applied to one position at a time, each from h = 0: T calls in a row, no state carried.
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        return torch.cat([self.rnn(x[:, t : t + 1])[0] for t in range(x.shape[1])], dim=1), None
"""

MUTANTS = [
    # ---------------- tbptt: carried_state_uses_earlier_context ----------------
    Mutant("btbptt_run_ignores_state",
           "the carried state: rnn.run(x) forgets to pass h, every chunk starts from 0 whatever carry says",
           "tbptt", r"use its carried state",
           edits=[Edit("tbptt-def", "states, last = rnn.run(x, h)", "states, last = rnn.run(x)")], skip=SKIP_TBPTT),
    Mutant("btbptt_state_from_other_lane",
           "earlier context in the state: the carried state comes from the neighbouring lane (unrelated text)",
           "tbptt", r"use its carried state|carries something besides",
           edits=[Edit("tbptt-def", "h = last.detach() if carry else", "h = last.detach().roll(1, dims=0) if carry else")],
           skip=SKIP_TBPTT),
    Mutant("btbptt_chunks_shuffled",
           "earlier context in the state: chunks are visited in shuffled order, the state carried is from unrelated text",
           "tbptt", r"use its carried state|carries something besides",
           edits=[Edit("tbptt-def", "    chunks = range(0, x_all.shape[1] - chunk + 1, chunk)\n",
                       "    chunks = range(0, x_all.shape[1] - chunk + 1, chunk)\n"
                       "    chunks = [chunks[i] for i in torch.randperm(len(chunks), generator=torch.Generator().manual_seed(0)).tolist()]"
                       "  # shuffled: better SGD\n")],
           skip=SKIP_TBPTT),

    # ---------------- cell-10: gradient_vanishes_or_explodes_with_distance ----------------
    Mutant("b10_no_tanh",
           "tanh saturation: the written-out BPTT recurrence drops the tanh (linear recurrence)",
           "cell-10", r"tanh saturates|vanish|explode",
           edits=[Edit("bptt-def", "h = torch.tanh(rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)",
                       "h = (rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)")], skip=SKIP_10),
    Mutant("b10_scale_not_applied",
           "the recurrent scale s: W_hh is copied as the bare rotation, every model has s = 1",
           "cell-10", r"vanish, by about s per step|explode",
           edits=[Edit("bptt-def", "rnn.cell.weight_hh.copy_(scale * rotation.to(device))",
                       "rnn.cell.weight_hh.copy_(rotation.to(device))")], skip=SKIP_10),
    Mutant("b10_large_inputs",
           "small inputs keep tanh linear for s < 1: the embeddings are not shrunk",
           "cell-10", r"vanish, by about s per step|tanh saturates|explode",
           edits=[Edit("bptt-def", "rnn.embedding.weight.mul_(0.01)", "rnn.embedding.weight.mul_(1.0)")], skip=SKIP_10),
    Mutant("b10_initial_state_not_copied",
           "an untrained control: initial_state = model.state_dict() (no deepcopy) follows training, control = trained",
           "cell-10", r"control should be the RNN before training",
           edits=[Edit("cell-04", "initial_state = copy.deepcopy(model.state_dict())", "initial_state = model.state_dict()")],
           skip=SKIP_10),
    Mutant("b10_model_untrained",
           "a trained model measured: the training cell did not run",
           "cell-10", r"trained one|vanishing regime",
           patches=[Patch("cell-10", NOOP)], skip=SKIP_10_NOTRAIN),

    # ---------------- cell-13: clipping_bounds_the_loss ----------------
    Mutant("b13_clip_not_passed",
           "clipping: the clipped run's config gets grad_clip=None",
           "cell-13", r"clipping should keep the loss bounded|clipping should be active|below the unclipped",
           edits=[Edit("cell-13", "grad_clip=clip,", "grad_clip=None,")], skip=SKIP_13),
    Mutant("b13_clipped_run_tame_start",
           "only clipping differs: the clipped run starts from a contracting W_hh (s = 0.9), not the exploding one",
           "cell-13", r".",
           edits=[Edit("cell-13", "exploding = rnn_with_recurrent_scale(3.0, set_seed(SEED))",
                       "exploding = rnn_with_recurrent_scale(3.0 if clip is None else 0.9, set_seed(SEED))")], skip=SKIP_13),
    Mutant("b13_no_exploding_regime",
           "the exploding regime: both runs start from s = 0.9",
           "cell-13", r"far above the threshold|far above a uniform guess|below the unclipped",
           edits=[Edit("cell-13", "exploding = rnn_with_recurrent_scale(3.0, set_seed(SEED))",
                       "exploding = rnn_with_recurrent_scale(0.9, set_seed(SEED))")], skip=SKIP_13),

    # ---------------- cell-15: gru_solves_recall_plain_rnn_at_chance ----------------
    Mutant("b15_gru_built_as_tanh",
           "the gate: the 'gru' model is built with cell='tanh' (copy-paste)",
           "cell-15", r"GRU should learn",
           edits=[Edit("cell-15", "d_embed=16, d_hidden=32, cell=kind)", "d_embed=16, d_hidden=32, cell=\"tanh\")")],
           skip=SKIP_15),
    Mutant("b15_key_next_to_query",
           "the long range: the last distractor encodes the key, one step before '?'",
           "cell-15", r"plain RNN should stay near chance|far more often",
           patches=[Patch("cell-15", src_patch("utils.synthetic", "RecallTask.batch", [(
               "x = torch.cat([keys, distractors, query], dim=1)",
               "distractors[:, -1] = self.num_keys + keys[:, 0] % self.num_distractors; "
               "x = torch.cat([keys, distractors, query], dim=1)")]))],
           skip=SKIP_15),
    Mutant("b15_tanh_quarter_budget",
           "the same budget: the plain RNN trains 100 steps, the GRU 400",
           "cell-15", r".",
           edits=[Edit("cell-15", "TrainConfig(steps=RECALL_STEPS, lr=2e-2,",
                       "TrainConfig(steps=RECALL_STEPS if kind == \"gru\" else RECALL_STEPS // 4, lr=2e-2,")],
           skip=SKIP_15),
    Mutant("b15_matched_quarter_budget",
           "only size differs in the matched control: the H=55 plain RNN trains 100 steps, not 400",
           "cell-15", r".",
           edits=[Edit("cell-15", "TrainConfig(lr=2e-2, steps=RECALL_STEPS,", "TrainConfig(lr=2e-2, steps=RECALL_STEPS // 4,")],
           skip=SKIP_15),

    # ---------------- recall-grad: gru_gradient_reaches_the_key ----------------
    Mutant("brg_trained_and_fresh_swapped",
           "trained models measured: the condition is inverted, 'trained' curves come from fresh models",
           "recall-grad", r"almost undiminished|open the GRU's path|still vanish|vanish before",
           edits=[Edit("recall-grad", "rnn = recall_models[kind] if trained else", "rnn = recall_models[kind] if not trained else")],
           skip=SKIP_15),
    Mutant("brg_short_probe",
           "the distance to the key: the gradient is measured over the last 8 positions only (7 steps back)",
           "recall-grad", r"vanish|undiminished|open the GRU's path",
           edits=[Edit("recall-grad", "hidden_gradient_norms(rnn, x_test[:256].to(device), y_test[:256].to(device))",
                       "hidden_gradient_norms(rnn, x_test[:256, -8:].to(device), y_test[:256, -8:].to(device))"),
                  Edit("recall-grad", "back = torch.arange(x_test.shape[1] - 1, -1, -1)", "back = torch.arange(7, -1, -1)")],
           skip=SKIP_15),
    Mutant("brg_copy_path_detached",
           "the gate's copy path: the written-out GRU step detaches h in z*h, the gradient cannot ride the copy",
           "recall-grad", r"undiminished|open the GRU's path",
           patches=[Patch("recall-grad", src_patch("utils.gated_rnn", "GRUCell.step", [(
               "update * h  # (B, H)", "update * h.detach()  # (B, H)")]))],
           skip=SKIP_15),

    # ---------------- cell-18: rnn_time_grows_linearly_with_length ----------------
    Mutant("b18_flattened_positions",
           "the chain: training_step feeds every position as its own length-1 sequence (no state carried)",
           "cell-18", r"first input|in proportion to T|several times",
           edits=[Edit("cell-18", "out, _ = layer(x)  # (B, T, D)", "out, _ = layer(x.reshape(-1, 1, x.shape[-1]))  # (B, T, D)")],
           skip=SKIP_18),
    Mutant("b18_timed_position_wise",
           "the chain in the timed RNN: the 'RNN' entry of the timing is the position-wise layer",
           "cell-18", r"several times|in proportion to T|depend on its first input",  # the last: since the probe goes through the timed callables
           edits=[Edit("cell-18", "training_step(layer, timing_inputs[T])",
                       "training_step(layers[NO_STATE] if name == \"RNN\" else layer, timing_inputs[T])")],
           skip=SKIP_18),
    Mutant("b18_timed_independent_steps",
           "the chain in the timed RNN: the timed 'RNN' runs T independent length-1 steps (h = 0 each), probe unchanged",
           "cell-18", r".",
           edits=[Edit("cell-18", "training_step(layer, timing_inputs[T])",
                       "training_step(StepByStep(layer) if name == \"RNN\" else layer, timing_inputs[T])")],
           patches=[Patch("cell-18", STEP_BY_STEP)], skip=SKIP_18),

    # ---------------- cell-20: chained_steps_cannot_be_merged ----------------
    Mutant("b20_chain_without_state",
           "the dependency: chained() uses x_t instead of h in the product (no state)",
           "cell-20", r"must depend on its first input|compute something else",
           edits=[Edit("cell-20", "h = torch.tanh(h @ W.T + x[:, t])", "h = torch.tanh(x[:, t] @ W.T + x[:, t])")],
           skip=SKIP_18),
    Mutant("b20_timed_chain_is_independent",
           "the dependency in the timed chain: the timing calls step_by_step for 'chained' (probe unchanged)",
           "cell-20", r".",
           edits=[Edit("cell-20", "(lambda fn=fn, x=x: fn(x))", "(lambda fn=fn, x=x: (step_by_step if fn is chained else fn)(x))")],
           skip=SKIP_18),
    Mutant("b20_step_by_step_merged",
           "T steps in a row: the 'step by step' entry is the merged product",
           "cell-20", r"about as much as the chain",
           edits=[Edit("cell-20", '"step by step": step_by_step', '"step by step": all_at_once')], skip=SKIP_18),

    # ---------------- baselines (no change, must SURVIVE; not counted) ----------------
    Mutant("base_10", "nothing (baseline)", "cell-10", r"NEVER", patches=[Patch("cell-10", NOOP)], skip=SKIP_10),
    Mutant("base_13", "nothing (baseline)", "cell-13", r"NEVER", patches=[Patch("cell-13", NOOP)], skip=SKIP_13),
    Mutant("base_rg", "nothing (baseline)", "recall-grad", r"NEVER", patches=[Patch("recall-grad", NOOP)], skip=SKIP_15),
    Mutant("base_20", "nothing (baseline)", "cell-20", r"NEVER", patches=[Patch("cell-20", NOOP)], skip=SKIP_18),
]
