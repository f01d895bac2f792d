"""Third red team's mutants of 04_recurrent_networks.ipynb (rt5; written from the notebook alone by a helper that had not
seen tests/mutants/; 16 of 21 valid mutants killed in its run, 2026-12-06). The five survivors (rt5_trained_is_shrunk_untrained,
rt5_gru_reads_reversed, rt5_gru_untrained_copying, rt5_rnn_timed_without_state, rt5_merged_is_loop) were mended since, at
their shows, and are kept with the others; the two the team marked equivalent (rt5_state_from_current_chunk,
rt5_clipped_starts_tame) are dropped. Each `message` matches the assert that kills the mutant."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "04_recurrent_networks.ipynb"

EXERCISES = ["cell-24", "cell-25", "cell-27", "cell-28", "ex3-solution", "ex3-test"]
TO_TBPTT = ["cell-06", "cell-07"] + EXERCISES
TO_BPTT = ["cell-07", "tbptt-def", "tbptt"] + EXERCISES
TO_CLIP = ["cell-06", "cell-07", "tbptt-def", "tbptt", "cell-10"] + EXERCISES
TO_RECALL = ["cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13"] + EXERCISES
TO_TIMING = TO_RECALL + ["cell-15", "recall-grad"]

MUTANTS = [
    # ---- tbptt: carried_state_uses_earlier_context
    Mutant(name="rt5_carry_resets", removes="the carried state: carry=True also resets h to 0 at every chunk",
           target="tbptt", message=r"should use its carried state",
           edits=[Edit(cell="tbptt-def", old="h = last.detach() if carry else torch.zeros_like(last)",
                       new="h = torch.zeros_like(last)")], skip=TO_TBPTT),
    Mutant(name="rt5_lanes_interleaved", removes="contiguous lanes: lane b holds every B-th token, so the carried "
           "state comes from unrelated text", target="tbptt", message=r"should use its carried state",
           edits=[Edit(cell="tbptt-def",
                       old="return stream[:usable].reshape(batch_size, -1), stream[1 : usable + 1].reshape(batch_size, -1)",
                       new="return stream[:usable].reshape(-1, batch_size).T.contiguous(), stream[1 : usable + 1].reshape(-1, batch_size).T.contiguous()")],
           skip=TO_TBPTT),
    # ---- cell-10: gradient_vanishes_or_explodes_with_distance
    Mutant(name="rt5_scale_ignored", removes="the recurrent scale: W_hh is a bare rotation for every s",
           target="cell-10", message=r"gradient should vanish, by about s per step",
           edits=[Edit(cell="bptt-def", old="rnn.cell.weight_hh.copy_(scale * rotation.to(device))",
                       new="rnn.cell.weight_hh.copy_(rotation.to(device))")], skip=TO_BPTT),
    Mutant(name="rt5_initial_state_aliased", removes="the untrained control: initial_state references the live "
           "weights (no deepcopy), so the 'untrained' RNN is the trained one", target="cell-10", message=r"control should be the RNN before training",
           edits=[Edit(cell="cell-04", old="initial_state = copy.deepcopy(model.state_dict())",
                       new="initial_state = model.state_dict()")], skip=TO_BPTT),
    Mutant(name="rt5_trained_is_shrunk_untrained", removes="training: the 'trained RNN' measured is the initial "
           "model with W_hh shrunk 20x (never trained)", target="cell-10", message=r"RNN measured should be the trained one",
           patches=[Patch(before="cell-10", code="""
with torch.no_grad():
    model.load_state_dict(initial_state)
    model.cell.rnn.weight_hh_l0.mul_(0.05)
""")], skip=TO_BPTT),
    Mutant(name="rt5_inputs_not_small", removes="the small inputs that keep tanh linear for s < 1",
           target="cell-10", message=r"gradient should vanish, by about s per step",
           edits=[Edit(cell="bptt-def", old="rnn.embedding.weight.mul_(0.01)", new="rnn.embedding.weight.mul_(1.0)")],
           skip=TO_BPTT),
    # ---- cell-13: clipping_bounds_the_loss
    Mutant(name="rt5_clip_ignored", removes="clipping: both runs train with grad_clip=None", target="cell-13",
           message=r"clipping should keep the loss bounded", edits=[Edit(cell="cell-13", old="grad_clip=clip,", new="grad_clip=None,")], skip=TO_CLIP),
    Mutant(name="rt5_clipped_lower_lr", removes="equal learning rates: the clipped run takes a 10x smaller lr",
           target="cell-13", message=r"with clipping, training should end below a uniform guess",
           edits=[Edit(cell="cell-13", old="clip_config = TrainConfig(steps=CLIP_STEPS, lr=CLIP_LR,",
                       new="clip_config = TrainConfig(steps=CLIP_STEPS, lr=CLIP_LR if clip is None else 0.1 * CLIP_LR,")],
           skip=TO_CLIP),
    # ---- cell-15: gru_solves_recall_plain_rnn_at_chance
    Mutant(name="rt5_gru_is_tanh", removes="the gate: the 'GRU' is a plain tanh RNN", target="cell-15", message=r"the GRU should learn the recall task",
           edits=[Edit(cell="cell-15", old="d_embed=16, d_hidden=32, cell=kind)", new='d_embed=16, d_hidden=32, cell="tanh")')],
           skip=TO_RECALL),
    Mutant(name="rt5_gru_reads_reversed", removes="memory across the gap: the GRU reads each sequence reversed, so "
           "at the last position it has just read the key (a model that sees the future)",
           target="cell-15", message=r"outputs before position \d+, with and without other tokens after it disagree",
           patches=[Patch(before="cell-15", code="""
import utils.gated_rnn as _g
def _reversed_run(self, x, h0):
    states, last = self.rnn(x.flip(1), h0.unsqueeze(0).contiguous())
    return states, last[0]
_g.GRUCell.run = _reversed_run
""")], skip=TO_RECALL),
    Mutant(name="rt5_plain_untrained", removes="training of the plain RNN (lr 1e-9)", target="cell-15", message=r"plain RNN should at least learn that a key follows",
           edits=[Edit(cell="cell-15", old="TrainConfig(steps=RECALL_STEPS, lr=2e-2,",
                       new='TrainConfig(steps=RECALL_STEPS, lr=2e-2 if kind == "gru" else 1e-9,')], skip=TO_RECALL),
    Mutant(name="rt5_gru_no_update_gate", removes="the GRU's copy path: the update gate is removed (h_t = n_t)",
           target="cell-15", message=r"the GRU should learn the recall task",
           patches=[Patch(before="cell-15", code="""
import utils.gated_rnn as _g
def _no_update_run(self, x, h0):
    projected, h, out = self.project_inputs(x), h0, []
    for t in range(x.shape[1]):
        x_r, x_z, x_n = projected[:, t].chunk(3, dim=-1)
        h_r, h_z, h_n = (h @ self.weight_hh.T + self.rnn.bias_hh_l0).chunk(3, dim=-1)
        h = torch.tanh(x_n + torch.sigmoid(x_r + h_r) * h_n)  # no update gate: nothing is copied
        out.append(h)
    return torch.stack(out, dim=1), h
_g.GRUCell.run = _no_update_run
""")], skip=TO_RECALL),
    # ---- recall-grad: gru_gradient_reaches_the_key
    Mutant(name="rt5_grad_trained_swapped", removes="the trained models: 'trained' measures fresh ones and vice versa",
           target="recall-grad", message=r"trained GRU's gradient should reach the key",
           edits=[Edit(cell="recall-grad", old="rnn = recall_models[kind] if trained else",
                       new="rnn = recall_models[kind] if not trained else")], skip=TO_RECALL),
    Mutant(name="rt5_gru_untrained_copying", removes="training: the 'trained GRU' measured is an untrained GRU whose "
           "update gate is pinned near 1 (it copies an empty state and recalls nothing)",
           target="recall-grad", message=r"trained GRU measured here should be the one that recalls",
           patches=[Patch(before="recall-grad", code="""
set_seed(SEED + 7)
_copying = RNNLM(RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell="gru")).to(device)
with torch.no_grad():
    _copying.cell.rnn.bias_ih_l0[32:64] = 8.0  # update gate z ~ 1
recall_models["gru"] = _copying
print("MUTANT: recall (loss, accuracy) of the GRU measured:", recall_scores(_copying, x_test, y_test))
""")], skip=TO_RECALL),
    # ---- cell-18: rnn_time_grows_linearly_with_length
    Mutant(name="rt5_rnn_is_positionwise", removes="the recurrence: the 'RNN' layer is position-wise",
           target="cell-18", message=r"last output should depend on its first input",
           edits=[Edit(cell="cell-18", old='layers = {"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True),',
                       new='layers = {"RNN": PositionWise(WIDTH),')], skip=TO_TIMING),
    Mutant(name="rt5_rnn_timed_without_state", removes="the chain in the timed computation: the RNN is timed as T "
           "separate calls of one step each from h_0 = 0 (no state carried); the probe still uses the real layer",
           target="cell-18", message=r"last output should depend on its first input",
           edits=[Edit(cell="cell-18", old="        out, _ = layer(x)  # (B, T, D); both layers return a pair",
                       new="        if isinstance(layer, torch.nn.RNN):  # one call per position, each from h_0 = 0\n"
                           "            out = torch.cat([layer(x[:, t : t + 1])[0] for t in range(x.shape[1])], dim=1)\n"
                           "        else:\n"
                           "            out, _ = layer(x)")], skip=TO_TIMING),
    Mutant(name="rt5_rnn_timed_prefix", removes="the length dependence: the RNN is timed on the first 16 positions only",
           target="cell-18", message=r"time per training step should grow in proportion to T",
           edits=[Edit(cell="cell-18", old="        out, _ = layer(x)  # (B, T, D); both layers return a pair",
                       new="        out, _ = layer(x[:, :16] if isinstance(layer, torch.nn.RNN) else x)")],
           skip=TO_TIMING),
    # ---- cell-20: chained_steps_cannot_be_merged
    Mutant(name="rt5_chain_no_carry", removes="the dependency: each chained step starts from a zero state",
           target="cell-20", message=r"chain's last state must depend on its first input",
           edits=[Edit(cell="cell-20", old="h = torch.tanh(h @ W.T + x[:, t])  # (B, D)",
                       new="h = torch.tanh(torch.zeros_like(h) @ W.T + x[:, t])  # (B, D)")], skip=TO_TIMING),
    Mutant(name="rt5_merged_is_loop", removes="the merge: 'all at once' is a Python loop over positions",
           target="cell-20", message=r"chain should cost more than the same products merged",
           edits=[Edit(cell="cell-20", old="return torch.tanh(x @ W.T + x)  # (B, T, D)",
                       new="return torch.stack([torch.tanh(x[:, t] @ W.T + x[:, t]) for t in range(x.shape[1])], dim=1)  # (B, T, D)")],
           skip=TO_TIMING),
    Mutant(name="rt5_step_by_step_merged", removes="the one-step-at-a-time control: 'step by step' is the merged product",
           target="cell-20", message=r"independent steps run one by one should cost about as much",
           edits=[Edit(cell="cell-20", old="    states = x.transpose(0, 1).contiguous()  # (T, B, D): the state of step t is given, not computed",
                       new="    return torch.tanh(x @ W.T + x)  # merged after all")], skip=TO_TIMING),
    Mutant(name="rt5_step_by_step_carries", removes="independence of the control: 'step by step' carries its state "
           "(it is the chain)", target="cell-20", message=r"independent steps one by one and merged should compute the same",
           edits=[Edit(cell="cell-20", old="out[:, t] = torch.tanh(states[t] @ W.T + x[:, t])  # (B, D)",
                       new="out[:, t] = torch.tanh((out[:, t - 1] if t else torch.zeros_like(x[:, 0])) @ W.T + x[:, t])  # (B, D)")],
           skip=TO_TIMING),
]
