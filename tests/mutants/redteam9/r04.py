"""Red team J: mutants of 04_recurrent_networks.ipynb."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "04_recurrent_networks.ipynb"
ANY = r"."

S_TBPTT = ["cell-06", "cell-07"]
S_BPTT = ["cell-07", "tbptt-def", "tbptt"]
S_CLIP = ["cell-06", "cell-07", "tbptt-def", "tbptt", "cell-10"]
S_RECALL = ["cell-04", "cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13"]
S_COST = S_RECALL + ["cell-15", "recall-grad"]

MUTANTS = [
    # ---------------- show 1: carried_state_uses_earlier_context (tbptt)
    Mutant("base_tbptt", "nothing (baseline)", "tbptt", ANY, patches=[Patch("tbptt", "pass")], skip=S_TBPTT),
    Mutant("tbptt_never_carry", "the state is never carried: every chunk starts from 0 in training and scoring",
           "tbptt", ANY, skip=S_TBPTT,
           edits=[Edit("tbptt-def", "h = last.detach() if carry else torch.zeros_like(last)", "h = torch.zeros_like(last)")]),
    Mutant("tbptt_strided_lanes", "lanes are strided (lane b = characters b, b+B, b+2B, ...): the state carried into a "
           "chunk holds no earlier context of the text it predicts", "tbptt", ANY, skip=S_TBPTT,
           edits=[Edit("tbptt-def", "return stream[:usable].reshape(batch_size, -1), stream[1 : usable + 1].reshape(batch_size, -1)",
                       "return stream[:usable].reshape(-1, batch_size).T, stream[1 : usable + 1].reshape(-1, batch_size).T")]),
    Mutant("tbptt_reversed_chunks", "chunks read last to first: the carried state summarises the text AFTER the chunk "
           "(reads ahead), not earlier context", "tbptt", ANY, skip=S_TBPTT,
           edits=[Edit("tbptt-def", "chunks = range(0, x_all.shape[1] - chunk + 1, chunk)",
                       "chunks = range(0, x_all.shape[1] - chunk + 1, chunk)[::-1]")]),
    # ---------------- show 2: gradient_vanishes_or_explodes_with_distance (cell-10)
    Mutant("base_bptt", "nothing (baseline)", "cell-10", ANY, patches=[Patch("cell-10", "pass")], skip=S_BPTT),
    Mutant("bptt_no_tanh", "the written-out BPTT recurrence without tanh: no saturation, s per step at s = 3",
           "cell-10", ANY, skip=S_BPTT,
           edits=[Edit("bptt-def", "h = torch.tanh(rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)",
                       "h = (rnn.embedding(x[:, t]) @ cell.weight_ih.T + cell.bias + h @ cell.weight_hh.T)")]),
    Mutant("bptt_inputs_not_small", "the scaled models keep full-size input embeddings: tanh leaves its linear range, "
           "so the factor per step is no longer s", "cell-10", ANY, skip=S_BPTT,
           edits=[Edit("bptt-def", "rnn.embedding.weight.mul_(0.01)", "rnn.embedding.weight.mul_(1.0)")]),
    Mutant("bptt_loss_every_position", "the loss of every position, not of the last: each h_t gets its own local "
           "gradient, so nothing flows back through time to measure", "cell-10", ANY, skip=S_BPTT,
           edits=[Edit("bptt-def", "loss_T = torch.nn.functional.cross_entropy(rnn.output(states[-1]), y[:, -1])",
                       "loss_T = torch.nn.functional.cross_entropy(rnn.output(torch.stack(states, 1)).flatten(0, 1), y.flatten())")]),
    # ---------------- show 3: clipping_bounds_the_loss (cell-13)
    Mutant("base_clip", "nothing (baseline)", "cell-13", ANY, patches=[Patch("cell-13", "pass")], skip=S_CLIP),
    Mutant("clip_after_step", "the gradient is clipped after the optimizer step: the clipped run applies whole gradients",
           "cell-13", ANY, skip=S_CLIP,
           patches=[Patch("cell-13", src_patch("utils.training", "train", [
               ("norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))",
                "optimizer.step(); norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))"),
               ("        optimizer.step()\n        value", "        value")], rebind="train"))]),
    Mutant("clip_by_value", "clipping each gradient entry to [-c, c] instead of the global norm: no bound on the step",
           "cell-13", ANY, skip=S_CLIP,
           patches=[Patch("cell-13", src_patch("utils.training", "train", [
               ("norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))",
                "norm = float(torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None])); "
                "torch.nn.utils.clip_grad_value_(model.parameters(), max_norm)")], rebind="train"))]),
    # ---------------- show 4: gru_solves_recall_plain_rnn_at_chance (cell-15)
    Mutant("base_recall", "nothing (baseline)", "cell-15", ANY, patches=[Patch("cell-15", "pass")], skip=S_RECALL),
    Mutant("gru_update_gate_shut", "the GRU's update gate pinned at 0 (bias -30): no copy path, a tanh-like recurrence",
           "cell-15", ANY, skip=S_RECALL,
           edits=[Edit("cell-15", "    recall_models[kind] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell=kind)).to(device)\n",
                       "    recall_models[kind] = RNNLM(RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell=kind)).to(device)\n"
                       "    if kind == 'gru':\n        with torch.no_grad():\n            recall_models[kind].cell.rnn.bias_hh_l0[32:64].fill_(-30.0)\n")]),
    Mutant("plain_rnn_smaller_batch", "the plain RNNs get 4 sequences per step, the GRU 32: 8x less data, not the same budget",
           "cell-15", ANY, skip=S_RECALL,
           edits=[Edit("cell-15", "recall_histories[kind] = train(recall_models[kind], task.sampler(32, recall_generator),",
                       "recall_histories[kind] = train(recall_models[kind], task.sampler(32 if kind == 'gru' else 4, recall_generator),"),
                  Edit("cell-15", "recall_histories[MATCHED] = train(recall_models[MATCHED], task.sampler(32, recall_generator),",
                       "recall_histories[MATCHED] = train(recall_models[MATCHED], task.sampler(4, recall_generator),")]),
    Mutant("plain_rnn_weak_init", "the plain RNNs start with W_hh shrunk 5x (a crippled baseline), the GRU as usual",
           "cell-15", ANY, skip=S_RECALL,
           edits=[Edit("cell-15", "    recall_initial[kind] = copy.deepcopy(",
                       "    if kind == 'tanh':\n        with torch.no_grad():\n            recall_models[kind].cell.rnn.weight_hh_l0.mul_(0.2)\n"
                       "    recall_initial[kind] = copy.deepcopy("),
                  Edit("cell-15", "recall_histories[MATCHED] = train(",
                       "recall_models[MATCHED].cell.rnn.weight_hh_l0.data.mul_(0.2)\nrecall_histories[MATCHED] = train(")]),
    # ---------------- show 5: gru_gradient_reaches_the_key (recall-grad)
    Mutant("base_recall_grad", "nothing (baseline)", "recall-grad", ANY, patches=[Patch("recall-grad", "pass")], skip=S_RECALL),
    Mutant("recall_grad_control_trained", "the 'initial' control loads the trained weights: control identical to effect",
           "recall-grad", ANY, skip=S_RECALL,
           edits=[Edit("recall-grad", "rnn.load_state_dict(recall_initial[kind])", "rnn.load_state_dict(recall_models[kind].state_dict())")]),
    Mutant("recall_grad_gru_copy_detached", "the GRU step's copy term z*h_{t-1} detached: the gradient no longer flows "
           "back through the gate's additive path", "recall-grad", ANY, skip=S_RECALL,
           patches=[Patch("recall-grad", src_patch("utils.gated_rnn", "GRUCell.step", [("update * h  #", "update * h.detach()  #")]))]),
    # ---------------- show 6: rnn_time_grows_linearly_with_length (cell-18)
    Mutant("base_rnn_time", "nothing (baseline)", "cell-18", ANY, patches=[Patch("cell-18", "pass")], skip=S_COST),
    Mutant("rnn_is_attention", "the layer timed and probed as 'RNN' is an attention layer: no chain, all positions at once",
           "cell-18", ANY, skip=S_COST,
           edits=[Edit("cell-18", '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', '"RNN": MultiHeadAttention(WIDTH, n_heads=4)')]),
    Mutant("rnn_time_major", "the RNN reads (B, T, D) as time-major: its chain runs over the 8 batch rows, T is the batch",
           "cell-18", ANY, skip=S_COST,
           edits=[Edit("cell-18", '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=True)', '"RNN": torch.nn.RNN(WIDTH, WIDTH, batch_first=False)')]),
    Mutant("control_loops_positions", "the position-wise control runs its positions one by one in a loop: it pays the T "
           "steps in a row like the RNN", "cell-18", ANY, skip=S_COST,
           edits=[Edit("cell-18", "return torch.tanh(self.input(x) + self.recurrent(x)), None",
                       "return torch.stack([torch.tanh(self.input(x[:, t]) + self.recurrent(x[:, t])) for t in range(x.shape[1])], 1), None")]),
    # ---------------- show 7: chained_steps_cannot_be_merged (cell-20)
    Mutant("base_chain", "nothing (baseline)", "cell-20", ANY, patches=[Patch("cell-20", "pass")], skip=S_COST),
    Mutant("chain_star", "every step reads the FIRST step's state, not the previous one: a star, mergeable after step 1",
           "cell-20", ANY, skip=S_COST,
           edits=[Edit("cell-20", "h = torch.tanh(h @ W.T + x[:, t])", "h = torch.tanh((out[:, 0] if t > 0 else h) @ W.T + x[:, t])")]),
    Mutant("chain_reset_every_16", "the chain's state is reset every 16 steps: at T > 16 the 'chain' is T/16 independent "
           "chains that could be merged; only T = 16 is a full chain", "cell-20", ANY, skip=S_COST,
           edits=[Edit("cell-20", "h = torch.tanh(h @ W.T + x[:, t])",
                       "h = torch.tanh((h if t % 16 else torch.zeros_like(h)) @ W.T + x[:, t])")]),
    Mutant("chain_without_state", "the chain's step ignores h: tanh(x_t W^T + x_t), independent steps timed as the chain",
           "cell-20", ANY, skip=S_COST,
           edits=[Edit("cell-20", "h = torch.tanh(h @ W.T + x[:, t])", "h = torch.tanh(x[:, t] @ W.T + x[:, t])")]),
]
