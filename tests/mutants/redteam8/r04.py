"""Red team E, notebook 04: mutants per show (see /work/helper_common.md)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "04_recurrent_networks.ipynb"

ANY = r"."  # any assertion message counts; the runner's reason tells which assert fired
NOP = "pass  # baseline: no change"

# Skip lists: cells the target does not need (cells after the target are allowed in a skip list).
SKIP_TBPTT = ["cell-06", "cell-07"]
SKIP_BPTT = ["cell-07", "tbptt"]
SKIP_CLIP = ["cell-06", "cell-07", "tbptt", "cell-10"]
SKIP_RECALL = ["cell-04", "cell-06", "cell-07", "tbptt", "cell-10", "cell-13"]
SKIP_TIMING = ["cell-04", "cell-06", "cell-07", "tbptt", "cell-10", "cell-13", "cell-15", "recall-grad"]

CARRY = "h = last.detach() if carry else torch.zeros_like(last)"

STAR_RNN = '''
class StarRNN(torch.nn.Module):
    # A written-out tanh RNN layer with a typo: every step reads the FIRST step's state h_1, not h_{t-1}.
    def __init__(self, width: int):
        super().__init__()
        self.rnn = torch.nn.RNN(width, width, batch_first=True)

    def forward(self, x):
        w_ih, w_hh = self.rnn.weight_ih_l0, self.rnn.weight_hh_l0
        b = self.rnn.bias_ih_l0 + self.rnn.bias_hh_l0
        h1 = torch.tanh(x[:, 0] @ w_ih.T + b)
        outs, h = [h1], h1
        for t in range(1, x.shape[1]):
            h = torch.tanh(x[:, t] @ w_ih.T + b + h1 @ w_hh.T)
            outs.append(h)
        return torch.stack(outs, 1), h.unsqueeze(0)
'''

TANH_DETACH = '''
import utils.rnn as _rnn_mod
def _detached_run(self, x, h0):
    # plain RNN written out "to save memory": h detached at every step (no gradient through time at all)
    h, states = h0, []
    for t in range(x.shape[1]):
        h = torch.tanh(x[:, t] @ self.weight_ih.T + self.bias + h.detach() @ self.weight_hh.T)
        states.append(h)
    return torch.stack(states, dim=1), h
_rnn_mod.TanhRNNCell.run = _detached_run
print("MUTANT ACTIVE: TanhRNNCell.run detached")
'''

MUTANTS = [
    # ---------------- tbptt: carried_state_uses_earlier_context ----------------
    Mutant("base_tbptt", "nothing (baseline)", "tbptt", "NEVER", patches=[Patch("tbptt", NOP)], skip=SKIP_TBPTT),
    Mutant("tbptt_control_model_swapped",
           "the reset control scores the separately trained reset model, not the carrying model with its state removed",
           "tbptt", ANY,
           edits=[Edit("tbptt", "carried_model_reset = tbptt_pass(tbptt_models[True], x_val_lanes",
                       "carried_model_reset = tbptt_pass(tbptt_models[False], x_val_lanes")], skip=SKIP_TBPTT),
    Mutant("tbptt_lanes_interleaved",
           "lanes do not continue themselves (reshape(-1, B).T: lane b is every B-th character), so the carried state "
           "holds no usable earlier context of the lane",
           "tbptt", ANY,
           edits=[Edit("tbptt-def",
                       "return stream[:usable].reshape(batch_size, -1), stream[1 : usable + 1].reshape(batch_size, -1)",
                       "return (stream[:usable].reshape(-1, batch_size).T.contiguous(),\n"
                       "            stream[1 : usable + 1].reshape(-1, batch_size).T.contiguous())")], skip=SKIP_TBPTT),
    Mutant("tbptt_carry_from_lane_above",
           "the state carried into lane b comes from lane b+1 (roll -1), so it is never this lane's earlier context",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", CARRY, "h = last.detach().roll(-1, dims=0) if carry else torch.zeros_like(last)")],
           skip=SKIP_TBPTT),
    Mutant("tbptt_lookahead_state",
           "the carried state is the lane's FUTURE (the state after reading the chunk after the next one, from 0), "
           "not its earlier context",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", CARRY,
                       "ahead = x_all[:, start + 2 * chunk : start + 3 * chunk]  # look-ahead bug\n"
                       "        h = ((rnn.run(ahead, torch.zeros_like(last))[1].detach() if ahead.shape[1] else "
                       "torch.zeros_like(last)) if carry else torch.zeros_like(last))")], skip=SKIP_TBPTT),
    # ---------------- cell-10: gradient_vanishes_or_explodes_with_distance ----------------
    Mutant("base_bptt", "nothing (baseline)", "cell-10", "NEVER", patches=[Patch("cell-10", NOP)], skip=SKIP_BPTT),
    Mutant("bptt_trained_untrained_swapped",
           "the gradient labelled 'trained RNN' is measured on the untrained copy (labels swapped); the val-loss "
           "check still looks at the trained model",
           "cell-10", ANY,
           edits=[Edit("cell-10",
                       'norms["trained RNN"] = bptt_gradient_norms(model, x_grad, y_grad).cpu()\n'
                       'untrained = copy.deepcopy(model)\n'
                       'untrained.load_state_dict(initial_state)  # the control: the same RNN before training\n'
                       'norms["untrained RNN"] = bptt_gradient_norms(untrained, x_grad, y_grad).cpu()',
                       'untrained = copy.deepcopy(model)\n'
                       'untrained.load_state_dict(initial_state)  # the control: the same RNN before training\n'
                       'norms["trained RNN"] = bptt_gradient_norms(untrained, x_grad, y_grad).cpu()\n'
                       'norms["untrained RNN"] = bptt_gradient_norms(model, x_grad, y_grad).cpu()')],
           skip=SKIP_BPTT),
    Mutant("bptt_inputs_not_small",
           "the scale models' inputs are not small, so tanh is not linear and the factor per step is not s",
           "cell-10", ANY,
           edits=[Edit("bptt-def", "        rnn.embedding.weight.mul_(0.01)  # small inputs: for scale < 1 tanh stays linear\n", "")],
           skip=SKIP_BPTT),
    Mutant("bptt_no_tanh",
           "the written-out recurrence has no tanh (linear): nothing saturates",
           "cell-10", ANY,
           edits=[Edit("bptt-def",
                       "h = torch.tanh(rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)",
                       "h = (rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)")],
           skip=SKIP_BPTT),
    Mutant("bptt_gaussian_not_orthogonal",
           "W_hh is s times a Gaussian matrix (singular values spread from 0 to 2s), not s times an orthogonal one",
           "cell-10", ANY,
           edits=[Edit("bptt-def",
                       "rotation, _ = torch.linalg.qr(torch.randn(d_hidden, d_hidden, generator=rotation_generator))",
                       "rotation = torch.randn(d_hidden, d_hidden, generator=rotation_generator) / d_hidden**0.5")],
           skip=SKIP_BPTT),
    # ---------------- cell-13: clipping_bounds_the_loss ----------------
    Mutant("base_clip", "nothing (baseline)", "cell-13", "NEVER", patches=[Patch("cell-13", NOP)], skip=SKIP_CLIP),
    Mutant("clip_after_step",
           "the shared loop clips after optimizer.step(): the step applied is the raw gradient",
           "cell-13", ANY,
           patches=[Patch("cell-13", src_patch("utils.training", "train", [(
               "        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))\n        optimizer.step()\n",
               "        optimizer.step()\n        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))\n")],
               rebind="train"))], skip=SKIP_CLIP),
    Mutant("clip_shared_batch_generator",
           "the batch generator is hoisted out of the loop: the clipped run sees other batches than the unclipped one",
           "cell-13", ANY,
           edits=[Edit("cell-13", "clip_runs, applied = {}, {}\n",
                       "clip_runs, applied = {}, {}\nclip_batch_generator = torch.Generator().manual_seed(SEED)\n"),
                  Edit("cell-13", "generator=torch.Generator().manual_seed(SEED))", "generator=clip_batch_generator)")],
           skip=SKIP_CLIP),
    Mutant("clip_momentum_in_clipped_run",
           "the clipped run's SGD has momentum 0.9: the update applied is not the clipped gradient, its length is not "
           "bounded by c (up to 10 c)",
           "cell-13", ANY,
           edits=[Edit("cell-13", "    sgd = LoggedSGD(exploding.parameters(), lr=CLIP_LR)\n",
                       "    sgd = LoggedSGD(exploding.parameters(), lr=CLIP_LR)\n"
                       "    if clip is not None:\n        sgd.param_groups[0][\"momentum\"] = 0.9\n")],
           skip=SKIP_CLIP),
    # ---------------- cell-15: gru_solves_recall_plain_rnn_at_chance ----------------
    Mutant("base_recall", "nothing (baseline)", "cell-15", "NEVER", patches=[Patch("cell-15", NOP)], skip=SKIP_RECALL),
    Mutant("recall_matched_not_matched",
           "the 'size-matched' plain RNN has H = 32 (2,433 parameters, not 5,239): the size control is not a control",
           "cell-15", ANY,
           edits=[Edit("cell-15", 'RNNConfig(task.vocab_size, d_embed=16, d_hidden=55, cell="tanh")',
                       'RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell="tanh")')], skip=SKIP_RECALL),
    Mutant("recall_plain_rnn_no_bptt",
           "the plain RNN's recurrence detaches h every step: it fails because no gradient flows through time at all, "
           "not because its gradient vanishes over 31 steps",
           "cell-15", ANY, patches=[Patch("cell-15", TANH_DETACH)], skip=SKIP_RECALL),
    # ---------------- recall-grad: gru_gradient_reaches_the_key ----------------
    Mutant("base_recall_grad", "nothing (baseline)", "recall-grad", "NEVER", patches=[Patch("recall-grad", NOP)],
           skip=SKIP_RECALL),
    Mutant("recall_grad_plain_untrained",
           "the 'trained' plain RNN measured is a fresh untrained one (re-created), so its vanishing is not the trained model's",
           "recall-grad", ANY,
           patches=[Patch("recall-grad", 'recall_models["tanh"] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, '
                                         'd_hidden=32, cell="tanh")).to(device)')], skip=SKIP_RECALL),
    Mutant("recall_grad_gru_gate_open_at_init",
           "the trained GRU starts with its update gate open (bias +3): training does not open the path, the init "
           "does; the 'initial' control is a default GRU",
           "recall-grad", ANY,
           edits=[Edit("cell-15",
                       "    recall_models[kind] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell=kind)).to(device)\n",
                       "    recall_models[kind] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell=kind)).to(device)\n"
                       "    if kind == \"gru\":  # 'chrono'-style init: keep the state at the start\n"
                       "        with torch.no_grad():\n"
                       "            recall_models[kind].cell.rnn.bias_hh_l0[32:64].fill_(3.0)\n")],
           skip=SKIP_RECALL),
    # ---------------- cell-18: rnn_time_grows_linearly_with_length ----------------
    Mutant("base_timing", "nothing (baseline)", "cell-18", "NEVER", patches=[Patch("cell-18", NOP)], skip=SKIP_TIMING),
    Mutant("timing_star_dependency",
           "the timed 'RNN' is a written-out loop whose step t reads h_1, not h_{t-1}: no chain, every step depends "
           "only on the first one (mergeable), yet timed step by step",
           "cell-18", ANY,
           patches=[Patch("cell-18", STAR_RNN)],
           edits=[Edit("cell-18", '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', '"RNN": StarRNN(WIDTH)')],
           skip=SKIP_TIMING),
    Mutant("timing_rnn_not_batch_first",
           "nn.RNN without batch_first: its chain runs over the batch of 8, positions are independent batch items",
           "cell-18", ANY,
           edits=[Edit("cell-18", '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', '"RNN": torch.nn.RNN(WIDTH, WIDTH)')],
           skip=SKIP_TIMING),
    # ---------------- cell-20: chained_steps_cannot_be_merged ----------------
    Mutant("base_chain", "nothing (baseline)", "cell-20", "NEVER", patches=[Patch("cell-20", NOP)], skip=SKIP_TIMING),
    Mutant("chain_star_dependency",
           "the 'chain' reads h_1 at every step (typo for h_{t-1}): steps 2..T are independent and mergeable",
           "cell-20", ANY,
           edits=[Edit("cell-20", "        h = torch.tanh(h @ W.T + x[:, t])  # (B, D)\n        out[:, t] = h\n",
                       "        out[:, t] = torch.tanh((out[:, 0] if t else h) @ W.T + x[:, t])  # (B, D): h_1 for h_{t-1}\n")],
           skip=SKIP_TIMING),
    Mutant("chain_linear_recurrence",
           "the chain has no tanh: a linear recurrence, which a parallel scan could merge",
           "cell-20", ANY,
           edits=[Edit("cell-20", "        h = torch.tanh(h @ W.T + x[:, t])  # (B, D)\n", "        h = h @ W.T + x[:, t]  # (B, D)\n")],
           skip=SKIP_TIMING),
    Mutant("chain_merged_truncated",
           "the 'merged' product only computes the first 16 positions: at longer T it does not do the same T products, "
           "so its speed-up is less work, not the merge",
           "cell-20", ANY,
           edits=[Edit("cell-20", "    return torch.tanh(x @ W.T + x)  # (B, T, D)\n",
                       "    return torch.tanh(x[:, :16] @ W.T + x[:, :16])  # (B, T, D)\n")],
           skip=SKIP_TIMING),
]
