"""Red team M: mutants of 04_recurrent_networks.ipynb."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "04_recurrent_networks.ipynb"

ANY = r"should|must|disagree|differ"
# skip lists (code cells the target does not need)
SK_TBPTT = ["cell-06", "cell-07"]
SK_GRAD = ["cell-07", "tbptt-def", "tbptt"]
SK_CLIP = ["cell-06", "cell-07", "tbptt-def", "tbptt", "cell-10"]
SK_RECALL = ["cell-04", "cell-06", "cell-07", "tbptt-def", "tbptt", "bptt-def", "cell-10", "cell-13"]
SK_TIME = SK_RECALL + ["cell-15", "recall-grad"]

MUTANTS = [
    # ---- carried_state_uses_earlier_context (tbptt)
    Mutant("tbptt_carry_only_at_eval",
           "the 'carrying' model is trained with its state reset at every chunk (it carries only when scored): "
           "truncated BPTT with a carried state is not what trained it",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", "h = last.detach() if carry else torch.zeros_like(last)",
                       "h = last.detach() if carry and optimizer is None else torch.zeros_like(last)")],
           skip=SK_TBPTT),
    Mutant("tbptt_chunks_reversed",
           "chunks are read from the end of each lane to its start, so the carried state holds the LATER text "
           "of the lane (future context), not earlier context",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", "chunks = range(0, x_all.shape[1] - chunk + 1, chunk)",
                       "chunks = range(0, x_all.shape[1] - chunk + 1, chunk)[::-1]")],
           skip=SK_TBPTT),
    Mutant("tbptt_control_rolled_in_time",
           "the 'another lane's state' control rolls each chunk along time instead of across lanes: the state "
           "carried is the lane's own (its earlier context intact), the chunk's text is scrambled instead",
           "tbptt", ANY,
           edits=[Edit("tbptt", "ids[:, s : s + TBPTT_CHUNK].roll(i, dims=0)",
                       "ids[:, s : s + TBPTT_CHUNK].roll(i, dims=1)")],
           skip=SK_TBPTT),
    Mutant("tbptt_lanes_strided",
           "lanes are cut column-wise (lane b = every B-th character), so a lane does not continue itself: "
           "the carried state holds no earlier context of a running text",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", "return stream[:usable].reshape(batch_size, -1), stream[1 : usable + 1].reshape(batch_size, -1)",
                       "return stream[:usable].reshape(-1, batch_size).T, stream[1 : usable + 1].reshape(-1, batch_size).T")],
           skip=SK_TBPTT),
    # ---- gradient_vanishes_or_explodes_with_distance (cell-10)
    Mutant("grad_inputs_not_small",
           "the input embeddings are not shrunk, so tanh is not kept in its linear range (the cause of 'x s per step')",
           "cell-10", ANY,
           edits=[Edit("bptt-def", "rnn.embedding.weight.mul_(0.01)", "rnn.embedding.weight.mul_(1.0)")],
           skip=SK_GRAD),
    Mutant("grad_control_is_trained",
           "initial_state keeps references to the live weights (no deepcopy): the 'untrained' control is the trained model",
           "cell-10", ANY,
           edits=[Edit("cell-04", "initial_state = copy.deepcopy(model.state_dict())", "initial_state = model.state_dict()")],
           skip=SK_GRAD),
    # ---- clipping_bounds_the_loss (cell-13)
    Mutant("clip_per_parameter",
           "the shared loop clips each parameter tensor to max_norm separately instead of the global norm",
           "cell-13", ANY,
           patches=[Patch("cell-13", src_patch("utils.training", "train", [(
               "norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))",
               "norm = float(torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None]))\n"
               "        [torch.nn.utils.clip_grad_norm_([p], max_norm) for p in model.parameters() if p.grad is not None]")],
               rebind="train"))],
           skip=SK_CLIP),
    # ---- gru_solves_recall_plain_rnn_at_chance (cell-15)
    Mutant("recall_tanh_mismatched_batches",
           "the plain RNN's sampler returns inputs of one batch and keys of another: its keys are unrelated to "
           "its input, so it is at chance for want of a learnable task, not for a vanishing gradient",
           "cell-15", ANY,
           edits=[Edit("cell-15", "recall_histories[kind] = train(recall_models[kind], task.sampler(32, recall_generator),",
                       "recall_histories[kind] = train(recall_models[kind], task.sampler(32, recall_generator) if kind == 'gru' "
                       "else (lambda: (task.batch(32, recall_generator)[0], task.batch(32, recall_generator)[1])),")],
           skip=SK_RECALL),
    Mutant("recall_matched_mismatched_batches",
           "the size-matched plain RNN trains on inputs of one batch and keys of another: the size control "
           "cannot learn, so 'the gate, not the size' is never tested",
           "cell-15", ANY,
           edits=[Edit("cell-15", "recall_histories[MATCHED] = train(recall_models[MATCHED], task.sampler(32, recall_generator),",
                       "recall_histories[MATCHED] = train(recall_models[MATCHED], "
                       "(lambda: (task.batch(32, recall_generator)[0], task.batch(32, recall_generator)[1])),")],
           skip=SK_RECALL),
    # ---- gru_gradient_reaches_the_key (recall-grad)
    Mutant("recall_grad_gru_step_cho",
           "GRUCell.step (the written-out step hidden_gradient_norms differentiates) applies the reset gate before "
           "W_hn (Cho et al.) while the trained nn.GRU applies it after: the gradient measured is of another function",
           "recall-grad", ANY,
           patches=[Patch("recall-grad", src_patch("utils.gated_rnn", "GRUCell.step", [(
               "candidate = torch.tanh(x_n + reset * h_n)",
               "candidate = torch.tanh(x_n + (reset * h) @ self.weight_hh[2 * self.d_hidden:].T + self.rnn.bias_hh_l0[2 * self.d_hidden:])")]))],
           skip=SK_RECALL),
    Mutant("recall_grad_gru_step_no_hidden_bias",
           "GRUCell.step forgets the hidden biases b_hr, b_hz, b_hn: the gradient measured is not that of the trained GRU",
           "recall-grad", ANY,
           patches=[Patch("recall-grad", src_patch("utils.gated_rnn", "GRUCell.step", [(
               "(h @ self.weight_hh.T + self.rnn.bias_hh_l0)", "(h @ self.weight_hh.T)")]))],
           skip=SK_RECALL),
    # ---- rnn_time_grows_linearly_with_length (cell-18)
    Mutant("timing_control_at_shortest",
           "the state's price is measured against the position-wise control at the SHORTEST length, not the same T",
           "cell-18", ANY,
           edits=[Edit("cell-18", 'zip(rounds["RNN", longest], rounds[NO_STATE, longest])',
                       'zip(rounds["RNN", longest], rounds[NO_STATE, TIMING_LENGTHS[0]])')],
           skip=SK_TIME),
    Mutant("timing_control_forward_only",
           "the position-wise control is timed without its backward pass, the RNN with it: the control differs in more than the state",
           "cell-18", ANY,
           edits=[Edit("cell-18", "        out.sum().backward()\n",
                       "        if not isinstance(layer, PositionWise):\n            out.sum().backward()\n")],
           skip=SK_TIME),
    # ---- chained_steps_cannot_be_merged (cell-20)
    Mutant("chain_cost_times_independent_loop",
           "the 'chain' cost is timed on the independent steps (step_by_step): the timing loop has no dependency",
           "cell-20", ANY,
           edits=[Edit("cell-20", 'chain_cost = [median_ratio("chained", "all at once", T) for T in TIMING_LENGTHS]',
                       'chain_cost = [median_ratio("step by step", "all at once", T) for T in TIMING_LENGTHS]')],
           skip=SK_TIME),
    Mutant("chain_merged_timed_on_one_row",
           "the merged product is timed on one sequence of the batch (1/8 of the products): its speed-up is off by a factor",
           "cell-20", ANY,
           edits=[Edit("cell-20", "(lambda fn=fn, x=x: fn(x))",
                       "(lambda fn=fn, x=x: fn(x[:1] if fn is all_at_once else x))")],
           skip=SK_TIME),
]

MUTANTS += [
    Mutant("tbptt_carry_only_at_eval_seeded",
           "the 'carrying' model is trained with its state reset at every chunk (carries only when scored), and the two "
           "models get different seeds so they are not identical: truncated BPTT with a carried state trained nothing",
           "tbptt", ANY,
           edits=[Edit("tbptt-def", "h = last.detach() if carry else torch.zeros_like(last)",
                       "h = last.detach() if carry and optimizer is None else torch.zeros_like(last)"),
                  Edit("tbptt", "    set_seed(SEED)\n", "    set_seed(SEED + int(carry))\n")],
           skip=SK_TBPTT),
    Mutant("recall_tanh_small_hidden",
           "the plain RNN of the recall comparison gets H = 8 instead of the GRU's 32 (its configuration's own start, "
           "the same budget): a weaker baseline than the prose's 'same settings'",
           "cell-15", ANY,
           edits=[Edit("cell-15", "RNNConfig(task.vocab_size, d_embed=16, d_hidden=32, cell=kind)",
                       "RNNConfig(task.vocab_size, d_embed=16, d_hidden=32 if kind == 'gru' else 8, cell=kind)")],
           skip=SK_RECALL),
    Mutant("timing_rnn_chain_cut_at_16",
           "the timed RNN runs every sequence as independent 16-step pieces (a batch of pieces): at the lengths that set the "
           "slope and the state's price there is no chain longer than 16; at T = 16, where the chain is probed, it is intact",
           "cell-18", ANY,
           edits=[Edit("cell-18", "        out, _ = layer(x)  # (B, T, D); both layers return a pair\n",
                       "        if isinstance(layer, torch.nn.RNN):\n"
                       "            out = layer(x.reshape(-1, 16, x.shape[-1]))[0].reshape(x.shape[0], x.shape[1], -1)\n"
                       "        else:\n"
                       "            out, _ = layer(x)  # (B, T, D); both layers return a pair\n")],
           skip=SK_TIME),
]
