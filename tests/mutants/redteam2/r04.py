"""Second red team's mutants of 04_recurrent_networks.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 15 of 20 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "04_recurrent_networks.ipynb"

SKIP_TBPTT = ["cell-06", "cell-07"]
SKIP_10 = ["cell-07", "tbptt-def", "tbptt"]
SKIP_13 = ["cell-06", "cell-07", "tbptt-def", "tbptt", "cell-10"]
SKIP_15 = ["cell-04", "cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13"]
SKIP_18 = SKIP_15 + ["cell-15", "recall-grad"]

GRU_NO_UPDATE_STEP = """
from utils.gated_rnn import GRUCell as _GRUCell
def _step_without_update(self, projected_x, h):
    x_r, x_z, x_n = projected_x.chunk(3, dim=-1)
    h_r, h_z, h_n = (h @ self.weight_hh.T + self.rnn.bias_hh_l0).chunk(3, dim=-1)
    reset = torch.sigmoid(x_r + h_r)
    return torch.tanh(x_n + reset * h_n)  # z = 0: the state is always replaced, never copied
_GRUCell.step = _step_without_update
print("MUTANT ACTIVE: GRU without update gate (step)")
"""
GRU_NO_UPDATE_RUN = GRU_NO_UPDATE_STEP + """
def _run_written_out(self, x, h0):
    projected, h, states = self.project_inputs(x), h0, []
    for t in range(x.shape[1]):
        h = self.step(projected[:, t], h)
        states.append(h)
    return torch.stack(states, dim=1), h
_GRUCell.run = _run_written_out
print("MUTANT ACTIVE: GRU without update gate (run)")
"""
POSITIONWISE = """
class _PositionWise(torch.nn.Module):
    # A layer with an RNN's interface whose positions are independent: tanh(W x_t + b), no state.
    def __init__(self, width):
        super().__init__()
        self.linear = torch.nn.Linear(width, width)
    def forward(self, x):
        return torch.tanh(self.linear(x)), None
print("MUTANT ACTIVE: position-wise layer defined")
"""

MUTANTS = [
    # ---- tbptt carried_state_uses_earlier_context
    Mutant("tbptt_state_never_carried", "the carried state: every chunk starts from h = 0 in both runs",
           "tbptt", ".", edits=[Edit("tbptt-def", "h = last.detach() if carry else torch.zeros_like(last)",
                                     "h = torch.zeros_like(last)")], skip=SKIP_TBPTT),
    Mutant("tbptt_eval_resets_state", "using the state at evaluation: validation always resets it",
           "tbptt", ".", edits=[Edit("tbptt", "tbptt_pass(rnn, x_val_lanes, y_val_lanes, TBPTT_CHUNK, carry)",
                                     "tbptt_pass(rnn, x_val_lanes, y_val_lanes, TBPTT_CHUNK, False)")], skip=SKIP_TBPTT),
    Mutant("tbptt_chunks_shuffled", "contiguity: chunks are read in a random order, so the carried state comes from unrelated text",
           "tbptt", ".", edits=[Edit("tbptt-def", "    for start in chunks:",
                                     "    for start in [chunks[i] for i in torch.randperm(len(chunks), generator=torch.Generator().manual_seed(0)).tolist()]:")],
           skip=SKIP_TBPTT),
    # ---- cell-10 gradient_vanishes_or_explodes_with_distance
    Mutant("bptt_scale_ignored", "the recurrent scale s: W_hh is the bare rotation for every s",
           "cell-10", ".", edits=[Edit("bptt-def", "rnn.cell.weight_hh.copy_(scale * rotation.to(device))",
                                       "rnn.cell.weight_hh.copy_(rotation.to(device))")], skip=SKIP_10),
    Mutant("bptt_state_dropped", "the recurrence: h_{t-1} is multiplied by 0 in the written-out BPTT loop",
           "cell-10", ".", edits=[Edit("bptt-def", "+ h @ cell.weight_hh.T)", "+ 0 * h @ cell.weight_hh.T)")], skip=SKIP_10),
    Mutant("bptt_trained_rnn_untrained", "training: the 'trained RNN' is a fresh, untrained RNN",
           "cell-10", ".", patches=[Patch("cell-10", "model = RNNLM(RNNConfig(V, d_embed=D_EMBED, d_hidden=D_HIDDEN, cell='tanh')).to(device)\n"
                                      "print('MUTANT ACTIVE: untrained model')")],
           skip=["cell-06", "cell-07", "tbptt-def", "tbptt"]),
    # ---- cell-13 clipping_bounds_the_loss
    Mutant("clip_ignored", "clipping: the 'clipped' run has grad_clip=None",
           "cell-13", ".", edits=[Edit("cell-13", "grad_clip=clip, progress=False)", "grad_clip=None, progress=False)")], skip=SKIP_13),
    Mutant("clip_replaced_by_small_lr", "clipping, replaced by a baseline: the 'clipped' run is unclipped SGD with lr 0.03",
           "cell-13", ".", edits=[Edit("cell-13", 'lr=CLIP_LR, schedule="constant", grad_clip=clip',
                                       'lr=CLIP_LR if clip is None else 0.03, schedule="constant", grad_clip=None')], skip=SKIP_13),
    Mutant("clip_not_exploding_regime", "the exploding regime: both runs start from scale 0.5 instead of 3",
           "cell-13", ".", edits=[Edit("cell-13", "rnn_with_recurrent_scale(3.0, set_seed(SEED))",
                                       "rnn_with_recurrent_scale(0.5, set_seed(SEED))")], skip=SKIP_13),
    # ---- cell-15 gru_solves_recall_plain_rnn_at_chance
    Mutant("recall_gru_is_plain", "the gates: the 'GRU' is built as a plain tanh RNN",
           "cell-15", ".", edits=[Edit("cell-15", "d_embed=16, d_hidden=32, cell=kind)).to(device)",
                                       "d_embed=16, d_hidden=32, cell='tanh')).to(device)")], skip=SKIP_15),
    Mutant("recall_gru_no_update_gate", "the GRU's copy path: update gate z forced to 0 (h_t = n_t)",
           "cell-15", ".", patches=[Patch("cell-15", GRU_NO_UPDATE_RUN)], skip=SKIP_15),
    Mutant("recall_plain_rnn_untrained", "training of the plain RNN: 1 step at lr 0 (warm-up)",
           "cell-15", ".", edits=[Edit("cell-15", "TrainConfig(steps=RECALL_STEPS,",
                                       "TrainConfig(steps=RECALL_STEPS if kind == 'gru' else 1,")], skip=SKIP_15),
    # ---- recall-grad gru_gradient_reaches_the_key
    Mutant("grad_gru_initial_as_trained", "training: the 'trained' GRU measured is a fresh one",
           "recall-grad", ".", edits=[Edit("recall-grad", "rnn = recall_models[kind] if trained else",
                                           "rnn = recall_models[kind] if trained and kind == 'tanh' else")], skip=SKIP_15),
    Mutant("grad_gru_no_update_gate", "the GRU's copy path, in the gradient: update gate forced to 0 in the step",
           "recall-grad", ".", patches=[Patch("recall-grad", GRU_NO_UPDATE_STEP)], skip=SKIP_15),
    # ---- cell-18 rnn_time_grows_linearly_with_length
    Mutant("timing_inputs_fixed_length", "the length: every timed input has T = 16",
           "cell-18", ".", edits=[Edit("cell-18", "torch.randn(TIMING_BATCH, T, WIDTH, requires_grad=True)",
                                       "torch.randn(TIMING_BATCH, TIMING_LENGTHS[0], WIDTH, requires_grad=True)")], skip=SKIP_18),
    Mutant("timing_rnn_replaced_by_positionwise", "the recurrence: the timed 'RNN' is a position-wise layer with no state",
           "cell-18", ".", patches=[Patch("cell-18", POSITIONWISE)],
           edits=[Edit("cell-18", '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', '"RNN": _PositionWise(WIDTH)')], skip=SKIP_18),
    # ---- cell-20 chained_steps_cannot_be_merged
    Mutant("chain_state_dropped", "the dependency: the chain's step ignores h_{t-1}",
           "cell-20", ".", edits=[Edit("cell-20", "h = torch.tanh(h @ W.T + x[:, t])  # (B, D)",
                                       "h = torch.tanh(torch.zeros_like(h) @ W.T + x[:, t])  # (B, D)")], skip=SKIP_18),
    Mutant("chain_zero_recurrent_matrix", "the dependency: W = 0, so no step depends on the previous one",
           "cell-20", ".", edits=[Edit("cell-20", "W = torch.randn(WIDTH, WIDTH) / WIDTH**0.5", "W = torch.zeros(WIDTH, WIDTH)")], skip=SKIP_18),
    Mutant("chain_timed_without_dependency", "a timing loop without the dependency: the timed 'chained' is the independent loop",
           "cell-20", ".", edits=[Edit("cell-20", 'ways = {"chained": chained,', 'ways = {"chained": step_by_step,')], skip=SKIP_18),
    Mutant("chain_one_by_one_is_merged", "T steps in a row: the 'step by step' timing is the merged product",
           "cell-20", ".", edits=[Edit("cell-20", '"step by step": step_by_step,', '"step by step": all_at_once,')], skip=SKIP_18),
]

CONTROLS = [
    Mutant("ctl_tbptt", "control", "tbptt", ".", patches=[Patch("tbptt", "pass")], skip=SKIP_TBPTT),
    Mutant("ctl_10", "control", "cell-10", ".", patches=[Patch("cell-10", "pass")], skip=SKIP_10),
    Mutant("ctl_13", "control", "cell-13", ".", patches=[Patch("cell-13", "pass")], skip=SKIP_13),
    Mutant("ctl_grad", "control", "recall-grad", ".", patches=[Patch("recall-grad", "pass")], skip=SKIP_15),
    Mutant("ctl_20", "control", "cell-20", ".", patches=[Patch("cell-20", "pass")], skip=SKIP_18),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['bptt_scale_ignored', 'bptt_state_dropped', 'chain_one_by_one_is_merged', 'chain_state_dropped', 'chain_zero_recurrent_matrix', 'clip_ignored', 'clip_not_exploding_regime', 'grad_gru_initial_as_trained', 'grad_gru_no_update_gate', 'recall_gru_is_plain', 'recall_gru_no_update_gate', 'recall_plain_rnn_untrained', 'tbptt_chunks_shuffled', 'tbptt_state_never_carried', 'timing_inputs_fixed_length']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
