"""Fourth red team's mutants of 01_autoregression.ipynb: 15 of 16 valid mutants killed at their show in its run (one equivalent excluded), the survivor (a log-softmax shared by the evaluator and its control) mended since (2026-12-06; written from the notebook, its lesson and utils alone by a helper that had not seen tests/mutants or any earlier red team's mutants). Each message: the start of the assert that kills it."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "01_autoregression.ipynb"
EARLY = ["6e5c75a8"]
SK_BOUNDARY = ["045018c7", "145f2f49", "6e5c75a8"]
SK_UNIFORM = ["6e5c75a8", "boundary", "eadd7dae"]
SK_LOOP = ["145f2f49", "6e5c75a8", "boundary", "eadd7dae", "9157a361", "f4f43990"]
SK_MORE = ["6e5c75a8", "boundary", "eadd7dae", "loop"]
SK_SCRAMBLE = ["6e5c75a8", "boundary", "eadd7dae", "loop", "57f66c82", "sampling-loop", "7f424a35", "scramble-figure"]

MUTANTS = [
    # ---- boundary ----
    Mutant(name="rt6_boundary_main_table_has_trap", target="boundary", message='with a boundary that every symbol can predict', skip=SK_BOUNDARY,
           removes="tightness of the studied table: 'a' is always followed by 'a', so texts reaching 'a' never end",
           edits=[Edit(cell="boundary", old="lengths = list(range(0, 101))",
                       new="P[1] = torch.tensor([0.0, 1.0, 0.0], dtype=P.dtype)\nlengths = list(range(0, 101))")]),
    Mutant(name="rt6_boundary_trap_unnormalised", target="boundary", message='a text that reaches a symbol that never leads', skip=SK_BOUNDARY,
           removes="the trap: the control only zeroes p(. | b) (row not renormalised), so 'b' still leads on to 'a' and ends",
           edits=[Edit(cell="boundary", old="trap[2] = torch.tensor([0.0, 0.0, 1.0])", new="trap[2, 0] = 0.0")]),
    # ---- uniform perplexity / evaluator control ----
    Mutant(name="rt6_eval_temperature", target="9157a361", message="the evaluator must score the model.'s own dis", skip=SK_UNIFORM,
           removes="the evaluator scores the model's own distribution: it divides the logits by a temperature of 1.5",
           patches=[Patch(before="9157a361", code=src_patch("utils.evaluation", "summed_nll",
                         [("F.log_softmax(logits.float(), dim=-1)", "F.log_softmax(logits.float() / 1.5, dim=-1)")]))]),
    Mutant(name="rt6_eval_unshifted", target="9157a361", message="the evaluator must score the model.'s own dis", skip=SK_UNIFORM,
           removes="the evaluator reads the scores at the wrong position: position t is fed the token it scores",
           patches=[Patch(before="9157a361", code=src_patch("utils.evaluation", "evaluate",
                         [("summed_nll(model(x), y)", "summed_nll(model(y.clamp(min=0)), y)")]))]),
    Mutant(name="rt6_shared_log_softmax_temperature", target="9157a361", message="the evaluator must score the model's own dist", skip=SK_UNIFORM,
           removes="independence of the control: a temperature of 1.5 inside log_softmax, used by the evaluator and the count formula alike",
           patches=[Patch(before="9157a361", code=(
               "import torch.nn.functional as _Fm\n_orig_ls = _Fm.log_softmax\n"
               "def _ls(input, dim=None, *a, **k):\n    return _orig_ls(input / 1.5, dim, *a, **k)\n"
               "_Fm.log_softmax = _ls\n"))]),
    # ---- written-out loop ----
    Mutant(name="rt6_loop_targets_are_inputs", target="loop", message='the gradient.trained table should approach th', skip=SK_LOOP,
           removes="next-token targets: the loss scores the inputs themselves",
           edits=[Edit(cell="loop", old="F.cross_entropy(logits.reshape(-1, V), y_batch.reshape(-1))",
                       new="F.cross_entropy(logits.reshape(-1, V), x_batch.reshape(-1))")]),
    Mutant(name="rt6_loop_one_batch", target="loop", message='the gradient.trained table should approach th', skip=SK_LOOP,
           removes="training on the training text: every step sees the same single batch",
           edits=[Edit(cell="loop", old="loop_batches = batch_sampler(train_text, BATCH_SIZE, BLOCK_SIZE, generator=torch.Generator().manual_seed(SEED))",
                       new="_one = batch_sampler(train_text, BATCH_SIZE, BLOCK_SIZE, generator=torch.Generator().manual_seed(SEED))(); loop_batches = lambda: _one")]),
    Mutant(name="rt6_loop_trains_on_val", target="loop", message='the gradient.trained table should approach th', skip=SK_LOOP,
           removes="the measured object: the table is trained on the validation text, then compared on the training counts",
           edits=[Edit(cell="loop", old="batch_sampler(train_text, BATCH_SIZE", new="batch_sampler(val_text, BATCH_SIZE")]),
    Mutant(name="rt6_loop_no_zero_grad", target="loop", message='the loop should start from the uniform table', skip=SK_LOOP,
           removes="zero_grad: gradients accumulate over all steps",
           edits=[Edit(cell="loop", old="optimizer.zero_grad()  # forget", new="pass  # forget")]),
    # ---- more context, less surprise ----
    Mutant(name="rt6_bigram_trained_on_val", target="57f66c82", message='trained on the training text, the bigram must', skip=SK_MORE,
           removes="held-out evaluation: the bigram is trained on the validation text",
           edits=[Edit(cell="fa7f419a", old="train_batches = batch_sampler(train_text,", new="train_batches = batch_sampler(val_text,")]),
    Mutant(name="rt6_bigram_trained_on_train_and_val", target="57f66c82", message='trained on the training text, the bigram must', skip=SK_MORE,
           removes="held-out evaluation: the validation text is part of the bigram's training data",
           edits=[Edit(cell="fa7f419a", old="train_batches = batch_sampler(train_text,",
                       new="train_batches = batch_sampler(torch.cat([train_text, val_text]),")]),
    Mutant(name="rt6_bigram_scored_on_train", target="57f66c82", message='trained on the training text, the bigram must', skip=SK_MORE,
           removes="held-out measurement: the bigram's 'validation' loss is its loss on the training split",
           edits=[Edit(cell="fa7f419a", old='bigram_val = evaluate_split(bigram, data, "val")',
                       new='bigram_val = evaluate_split(bigram, data, "train")')]),
    Mutant(name="rt6_bigram_reads_future", target="57f66c82", message="the bigram.'s logits at positions <= t with t", skip=SK_MORE,
           removes="reading only the past: the table is indexed by the NEXT token",
           patches=[Patch(before="fa7f419a", code=(
               "import utils.baselines as _b\n"
               "def _fwd(self, idx):\n    self.validate_input(idx)\n    return self.logits(torch.roll(idx, -1, 1))\n"
               "_b.BigramTableLM.forward = _fwd\n"))]),
    # ---- real text beats scrambled ----
    Mutant(name="rt6_scramble_identity", target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SK_SCRAMBLE,
           removes="the scrambling: the 'scrambled' orders are the real order",
           edits=[Edit(cell="714c9ec3", old="for i in torch.randperm(WIDTH, generator=window_generator))",
                       new="for i in sorted(torch.randperm(WIDTH, generator=window_generator).tolist()))")]),
    Mutant(name="rt6_scramble_rotation", target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SK_SCRAMBLE,
           removes="destroying order: the 'scramble' is a cyclic rotation that keeps 39 of 40 neighbour pairs",
           edits=[Edit(cell="714c9ec3", old='"".join(w[i] for i in torch.randperm(WIDTH, generator=window_generator))',
                       new='(lambda r: w[r:] + w[:r])(int(torch.randint(1, WIDTH, (1,), generator=window_generator)))')]),
    Mutant(name="rt6_bigram_blind_at_scoring", target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SK_SCRAMBLE,
           removes="the bigram's use of the previous character when scoring: every row replaced by the mean row",
           patches=[Patch(before="714c9ec3", code=(
               "_mean_row = bigram.logits.weight.detach().mean(0)\n"
               "bigram.forward = lambda idx: _mean_row.to(idx.device).expand(*idx.shape, V)\n"))]),
]

# Excluded as EQUIVALENT (ran, survived, claim still true): a column-normalised table still gives texts of all lengths
# total 1 (start = 1^T (I - Q), so the total is P00 + 1^T stop = 1) and the trap loses exactly 1 - P00 - P01 P10 / (1 - P11).
EXCLUDED = [
    Mutant(name="rt6_boundary_softmax_wrong_axis", target="boundary", message=".", skip=SK_BOUNDARY,
           removes="the table is no distribution over the next symbol: the softmax normalises columns, not rows",
           edits=[Edit(cell="boundary", old="framed(torch.arange(3)[None])[0].softmax(-1)",
                       new="framed(torch.arange(3)[None])[0].softmax(0)")]),
]
