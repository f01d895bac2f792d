"""Second red team's mutants of 01_autoregression.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 23 of 26 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "01_autoregression.ipynb"

# Cells each target does not need (cells after a target are never run anyway).
S_BOUNDARY = ["045018c7", "145f2f49", "6e5c75a8", "eadd7dae"]
S_UNIFORM = ["6e5c75a8", "boundary", "eadd7dae"]
S_LOOP = ["145f2f49", "6e5c75a8", "boundary", "eadd7dae", "9157a361", "f4f43990"]
S_CTX = ["6e5c75a8", "boundary", "eadd7dae", "loop"]
S_SCRAMBLE = ["6e5c75a8", "boundary", "eadd7dae", "loop", "57f66c82", "sampling-loop", "7f424a35"]

MUTANTS = [
    # ---- boundary_lengths_sum_to_one ----
    Mutant("boundary_power_off_by_one", "length bookkeeping: a text of n symbols makes n-1 transitions inside the text "
           "(matrix power n instead of n-1)", "boundary", ".",
           edits=[Edit("boundary", "torch.linalg.matrix_power(inside, n - 1)", "torch.linalg.matrix_power(inside, n)")],
           skip=S_BOUNDARY),
    Mutant("boundary_stop_not_predicted", "stopping as a prediction: texts end without paying p(. | last symbol) "
           "(the fixed-length view; enumeration changed consistently)", "boundary", ".",
           edits=[Edit("boundary", "P[0, 1:], P[1:, 0]", "P[0, 1:], torch.ones_like(P[1:, 0])"),
                  Edit("boundary", "float(P[0, a] * P[a, b] * P[b, 0])", "float(P[0, a] * P[a, b])")],
           skip=S_BOUNDARY),
    Mutant("boundary_trap_is_tight", "the control's trap: the changed row still leads to a symbol that can end "
           "('b' always followed by 'a')", "boundary", ".",
           edits=[Edit("boundary", "trap[2] = torch.tensor([0.0, 0.0, 1.0])", "trap[2] = torch.tensor([0.0, 1.0, 0.0])")],
           skip=S_BOUNDARY),
    Mutant("boundary_transitions_transposed", "the transition direction: row/column convention swapped inside the text "
           "(p(a|b) used for p(b|a))", "boundary", ".",
           edits=[Edit("boundary", "inside, start, stop = P[1:, 1:],", "inside, start, stop = P[1:, 1:].T,")],
           skip=S_BOUNDARY),
    Mutant("boundary_short_horizon", "all lengths: the sum stops at 5 symbols, so the tail mass is missing",
           "boundary", ".",
           edits=[Edit("boundary", "lengths = list(range(0, 101))", "lengths = list(range(0, 6))")],
           skip=S_BOUNDARY),
    # ---- uniform_perplexity_is_v ----
    Mutant("uniform_extra_symbol", "the uniform model spreads over exactly V symbols (one extra, e.g. a pad)",
           "9157a361", ".",
           edits=[Edit("9157a361", "UniformLM(BaselineConfig(V))", "UniformLM(BaselineConfig(V + 1))")],
           skip=S_UNIFORM),
    Mutant("random_table_not_confident", "confident random guesses: the random table is nearly uniform (std 0.05)",
           "9157a361", ".",
           edits=[Edit("145f2f49", "std=2.0", "std=0.05")], skip=S_UNIFORM),
    Mutant("logits_read_as_log_probs", "normalisation: evaluation reads raw logits as log-probabilities (no log_softmax)",
           "9157a361", ".",
           patches=[Patch("9157a361", "import utils.evaluation as _ev\nfrom utils.interface import IGNORE_INDEX as _IG\n"
                          "def _bad(logits, targets):\n"
                          "    keep = targets != _IG\n"
                          "    picked = logits.float().gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)\n"
                          "    return float(-(picked[keep]).double().sum()), int(keep.sum())\n"
                          "_ev.summed_nll = _bad\nprint('PATCHED summed_nll')\n")],
           skip=S_UNIFORM),
    Mutant("perplexity_in_base_two", "the unit: perplexity computed as 2**nll with nll in nats", "9157a361", ".",
           patches=[Patch("9157a361", "import utils.evaluation as _ev\n_ev.Metrics.perplexity = property(lambda self: 2 ** self.nll)\n")],
           skip=S_UNIFORM),
    Mutant("token_count_off_by_one", "the mean: each batch counts one target too many", "9157a361", ".",
           patches=[Patch("9157a361", "import utils.evaluation as _ev\n_orig = _ev.summed_nll\n"
                          "_ev.summed_nll = lambda l, t: (lambda r: (r[0], r[1] + 1))(_orig(l, t))\n")],
           skip=S_UNIFORM),
    Mutant("eval_at_temperature", "the evaluated distribution: evaluation scores softmax(logits / 1.5), not the model's "
           "own distribution (the uniform model is blind to it)", "9157a361", ".",
           patches=[Patch("9157a361", "import utils.evaluation as _ev\n_orig = _ev.summed_nll\n"
                          "_ev.summed_nll = lambda l, t: _orig(l / 1.5, t)\nprint('PATCHED summed_nll at T=1.5')\n")],
           skip=S_UNIFORM),
    Mutant("loop_warm_start_from_counts", "gradient descent: the table is copied from the counts and never trained "
           "(a 'warm start' that leaves the loop with nothing to do)", "loop", ".",
           edits=[Edit("loop", "optimizer = torch.optim.AdamW(",
                       "with torch.no_grad():\n"
                       "    _c = torch.zeros(V, V).index_put_((train_text[:-1], train_text[1:]), torch.ones(train_text.numel() - 1), accumulate=True) + 1e-3\n"
                       "    table_model.logits.weight.copy_(_c.log())\n"
                       "optimizer = torch.optim.AdamW("),
                  Edit("loop", "for step in range(LOOP_STEPS):", "for step in range(0):")],
           skip=S_LOOP),
    # ---- gradient_bigram_matches_counts ----
    Mutant("loop_no_step", "the update: optimizer.step() removed", "loop", ".",
           edits=[Edit("loop", "    optimizer.step()  # update the table", "    pass  # update the table")], skip=S_LOOP),
    Mutant("loop_no_zero_grad", "forgetting old gradients: zero_grad removed, gradients accumulate over steps",
           "loop", ".",
           edits=[Edit("loop", "    optimizer.zero_grad()  # forget", "    pass  # forget")], skip=S_LOOP),
    Mutant("loop_targets_are_inputs", "the shift: the loss scores the input tokens, not the next tokens", "loop", ".",
           edits=[Edit("loop", "y_batch.reshape(-1))  # mean surprisal", "x_batch.reshape(-1))  # mean surprisal")],
           skip=S_LOOP),
    Mutant("loop_graph_detached", "the gradient path: logits detached from the table, so backward never reaches it",
           "loop", ".",
           edits=[Edit("loop", "logits = table_model(x_batch)  # forward", "logits = table_model(x_batch).detach().requires_grad_()  # forward")],
           skip=S_LOOP),
    Mutant("loop_context_off_by_one", "the right context: the table is trained on the token two back (x_{t-1} -> x_{t+1})",
           "loop", ".",
           edits=[Edit("loop", "logits = table_model(x_batch)  # forward",
                       "logits = table_model(torch.cat([x_batch[:, :1], x_batch[:, :-1]], 1))  # forward")],
           skip=S_LOOP),
    Mutant("loop_lr_tiny", "enough optimisation: learning rate 0.003 instead of 0.3", "loop", ".",
           edits=[Edit("loop", "lr=0.3, weight_decay=0.0", "lr=0.003, weight_decay=0.0")], skip=S_LOOP),
    # ---- more_context_less_surprise ----
    Mutant("bigram_sees_future", "causality: the table reads the NEXT token (x_{t+1}) at position t", "57f66c82", ".",
           patches=[Patch("fa7f419a", "BigramTableLM.forward = lambda self, idx: self.logits(torch.roll(idx, -1, dims=1))\n")],
           skip=S_CTX),
    Mutant("bigram_never_trained", "training: a fresh table is trained, the evaluated one stays at zero (uniform)",
           "57f66c82", ".",
           edits=[Edit("fa7f419a", "history = train(bigram, train_batches", "history = train(BigramTableLM(BaselineConfig(V)).to(device), train_batches")],
           skip=S_CTX),
    Mutant("bigram_ignores_context", "the context: every position reads row 0 (a unigram in disguise)", "57f66c82", ".",
           patches=[Patch("fa7f419a", "BigramTableLM.forward = lambda self, idx: self.logits(torch.zeros_like(idx))\n")],
           skip=S_CTX),
    Mutant("bigram_reads_token_before", "the most recent token: position t reads x_{t-1} (a skip-bigram)", "57f66c82", ".",
           patches=[Patch("fa7f419a", "BigramTableLM.forward = lambda self, idx: self.logits(torch.cat([idx[:, :1], idx[:, :-1]], 1))\n")],
           skip=S_CTX),
    Mutant("bigram_trained_on_val", "held-out evaluation: the bigram is trained on the validation text it is scored on",
           "57f66c82", ".",
           edits=[Edit("fa7f419a", "train_batches = batch_sampler(train_text,", "train_batches = batch_sampler(val_text,")],
           skip=S_CTX),
    # ---- real_text_beats_scrambled ----
    Mutant("scramble_scored_by_unigram", "the context: the comparison scored by the unigram instead of the bigram",
           "714c9ec3", ".",
           edits=[Edit("714c9ec3", "scramble_gaps(bigram), scramble_gaps(unigram)", "scramble_gaps(unigram), scramble_gaps(unigram)")],
           skip=S_SCRAMBLE),
    Mutant("scramble_scored_by_random_table", "training: the comparison scored by the untrained random table",
           "714c9ec3", ".",
           edits=[Edit("714c9ec3", "scramble_gaps(bigram), scramble_gaps(unigram)", "scramble_gaps(random_bigram), scramble_gaps(unigram)")],
           skip=S_SCRAMBLE),
    Mutant("scorer_sees_scored_token", "causality in scoring: the model is fed x_t when it scores x_t (inputs shifted by one)",
           "714c9ec3", ".",
           patches=[Patch("714c9ec3", "import utils.widgets.autoregression as _wa\n"
                          "@torch.no_grad()\ndef _leak(model, ids):\n"
                          "    idx = torch.as_tensor(ids, dtype=torch.long, device=model.device)\n"
                          "    lp = F.log_softmax(model(idx[None, 1:]).float(), -1)[0]\n"
                          "    return lp.gather(-1, idx[1:, None]).squeeze(-1)\n"
                          "_wa.token_log_probs = _leak\nprint('PATCHED token_log_probs')\n")],
           skip=S_SCRAMBLE),
]


import dataclasses as _dataclasses  # noqa: E402

# loop_warm_start_from_counts survived the team's run; the show was mended after it (2026-12-05) and now kills it
_KILLED = ['loop_warm_start_from_counts', 'bigram_ignores_context', 'bigram_never_trained', 'bigram_reads_token_before', 'bigram_sees_future', 'boundary_power_off_by_one', 'boundary_short_horizon', 'boundary_stop_not_predicted', 'boundary_transitions_transposed', 'boundary_trap_is_tight', 'logits_read_as_log_probs', 'loop_context_off_by_one', 'loop_graph_detached', 'loop_lr_tiny', 'loop_no_step', 'loop_no_zero_grad', 'loop_targets_are_inputs', 'perplexity_in_base_two', 'random_table_not_confident', 'scorer_sees_scored_token', 'scramble_scored_by_random_table', 'scramble_scored_by_unigram', 'token_count_off_by_one', 'uniform_extra_symbol']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
