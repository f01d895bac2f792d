"""Third red team's mutants of 01_autoregression.ipynb, written from the notebook, its lesson and utils alone by a helper that had not seen tests/mutants; 26 of 29 killed at their show in its run (2026-12-06), the survivors mended since; all 29 killed on the mended notebook (runner, fast mode). Each message: the start of the assert that kills it."""

from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "01_autoregression.ipynb"

SKIP_BOUNDARY = ["045018c7", "145f2f49", "6e5c75a8"]
SKIP_UNIFORM = ["6e5c75a8", "boundary", "eadd7dae"]
SKIP_LOOP = ["145f2f49", "6e5c75a8", "boundary", "eadd7dae", "9157a361", "f4f43990"]
SKIP_CONTEXT = ["6e5c75a8", "boundary", "eadd7dae", "loop"]
SKIP_SCRAMBLE_LATE = ["6e5c75a8", "boundary", "eadd7dae", "loop", "57f66c82", "sampling-loop", "7f424a35"]
SKIP_SCRAMBLE = ["6e5c75a8", "boundary", "eadd7dae", "loop", "sampling-loop", "7f424a35"]

_TEMPERATURE = src_patch("utils.evaluation", "summed_nll", [
    ("log_probs = F.log_softmax(logits.float(), dim=-1)", "log_probs = F.log_softmax(logits.float() / 1.5, dim=-1)")])
_SMOOTHED = src_patch("utils.evaluation", "summed_nll", [
    ("log_probs = F.log_softmax(logits.float(), dim=-1)",
     "log_probs = (0.9 * F.softmax(logits.float(), dim=-1) + 0.1 / logits.shape[-1]).log()")])
_UNSHIFTED = src_patch("utils.batching", "sequential_batches", [
    ("y[row, : chunk.numel() - 1] = chunk[1:]", "y[row, : chunk.numel() - 1] = chunk[:-1]")]) + \
    "import utils.evaluation as _ue, utils.batching as _ub\n_ue.sequential_batches = _ub.sequential_batches\n"
_DROP_FIRST = src_patch("utils.batching", "sequential_batches", [
    ("y[row, : chunk.numel() - 1] = chunk[1:]", "y[row, : chunk.numel() - 1] = chunk[1:]; y[row, 0] = IGNORE_INDEX")]) + \
    "import utils.evaluation as _ue, utils.batching as _ub\n_ue.sequential_batches = _ub.sequential_batches\n"
_SEES_NEXT = src_patch("utils.baselines", "BigramTableLM.forward", [
    ("return self.logits(idx)", "return self.logits(torch.roll(idx, -1, dims=1))")])
_READS_BEFORE = src_patch("utils.baselines", "BigramTableLM.forward", [
    ("return self.logits(idx)", "return self.logits(torch.cat([idx[:, :1], idx[:, :-1]], dim=1))")])
_SCORE_SKIP = src_patch("utils.evaluation", "token_log_probs", [
    ("model(idx[None, :-1])", "model(torch.cat([idx[:1], idx[:-2]])[None])")]) + \
    "import utils.widgets.autoregression as _wa, utils.evaluation as _ue\n_wa.token_log_probs = _ue.token_log_probs\n"
_SCORE_UNSHIFTED = src_patch("utils.evaluation", "token_log_probs", [
    ("model(idx[None, :-1])", "model(idx[None, 1:])")]) + \
    "import utils.widgets.autoregression as _wa, utils.evaluation as _ue\n_wa.token_log_probs = _ue.token_log_probs\n"

MUTANTS = [
    # ---- boundary: lengths sum to one; a trap at 'b' loses exactly p(reach b) ----
    Mutant(name="rt5_boundary_trap_leaks_to_a", removes="the trap: p(. | b) = 0 but b can still go to a, which ends",
           target="boundary", message='a text that reaches a symbol that never leads', skip=SKIP_BOUNDARY,
           edits=[Edit(cell="boundary", old="trap[2] = torch.tensor([0.0, 0.0, 1.0])",
                       new="trap[2] = torch.tensor([0.0, float(P[2, 0] + P[2, 1]), float(P[2, 2])])")]),
    Mutant(name="rt5_boundary_main_has_trap", removes="tightness of the main model: 'a' is always followed by 'a'",
           target="boundary", message='with a boundary that every symbol can predict', skip=SKIP_BOUNDARY,
           edits=[Edit(cell="boundary", old="lengths = list(range(0, 101))",
                       new="P[1] = torch.tensor([0.0, 1.0, 0.0], dtype=P.dtype)\nlengths = list(range(0, 101))")]),
    Mutant(name="rt5_boundary_power_off_by_one", removes="the right number of steps inside the text (n instead of n-1)",
           target="boundary", message='enumeration and matrix powers must agree', skip=SKIP_BOUNDARY,
           edits=[Edit(cell="boundary", old="torch.linalg.matrix_power(inside, n - 1)",
                       new="torch.linalg.matrix_power(inside, n)")]),
    Mutant(name="rt5_boundary_trap_on_a", removes="the trap at b (it is put at a, the measured p(reach b) no longer applies)",
           target="boundary", message='a text that reaches a symbol that never leads', skip=SKIP_BOUNDARY,
           edits=[Edit(cell="boundary", old="trap[2] = torch.tensor([0.0, 0.0, 1.0])",
                       new="trap[1] = torch.tensor([0.0, 1.0, 0.0])")]),
    Mutant(name="rt5_boundary_transposed_chain", removes="the direction of the chain (p(a | b) used for p(b | a))",
           target="boundary", message='enumeration and matrix powers must agree', skip=SKIP_BOUNDARY,
           edits=[Edit(cell="boundary", old="inside, start, stop = P[1:, 1:], P[0, 1:], P[1:, 0]",
                       new="inside, start, stop = P[1:, 1:].T, P[0, 1:], P[1:, 0]")]),
    # ---- 9157a361: uniform perplexity is V; the evaluator scores the model's own distribution ----
    Mutant(name="rt5_uniform_eval_temperature", removes="the evaluator scoring the model's own distribution (logits / 1.5)",
           target="9157a361", message="the evaluator must score the model's own dist", skip=SKIP_UNIFORM, patches=[Patch(before="9157a361", code=_TEMPERATURE)]),
    Mutant(name="rt5_uniform_eval_label_smoothing", removes="the model's own distribution (mixed 10% with uniform)",
           target="9157a361", message="the evaluator must score the model's own dist", skip=SKIP_UNIFORM, patches=[Patch(before="9157a361", code=_SMOOTHED)]),
    Mutant(name="rt5_uniform_eval_unshifted", removes="the shift: each position scores its own input token",
           target="9157a361", message="the evaluator must score the model's own dist", skip=SKIP_UNIFORM, patches=[Patch(before="9157a361", code=_UNSHIFTED)]),
    Mutant(name="rt5_uniform_eval_drops_first_target", removes="every target scored: the first target of each chunk is ignored",
           target="9157a361", message="the evaluator must score the model's own dist", skip=SKIP_UNIFORM, patches=[Patch(before="9157a361", code=_DROP_FIRST)]),
    Mutant(name="rt5_uniform_random_is_uniform", removes="confidence of the random table (std 0: it is uniform)",
           target="9157a361", message='confident random guesses should be worse than', skip=SKIP_UNIFORM,
           edits=[Edit(cell="145f2f49", old="std=2.0", new="std=0.0")]),
    # ---- loop: the written-out loop converges to the count bigram ----
    Mutant(name="rt5_loop_no_step", removes="the optimiser step", target="loop", message='the loop should start from the uniform table', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="    optimizer.step()  # update the table", new="    pass")]),
    Mutant(name="rt5_loop_targets_are_inputs", removes="next-token targets (the loss scores the input token itself)",
           target="loop", message='the gradient.trained table should approach th', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="y_batch.reshape(-1))", new="x_batch.reshape(-1))")]),
    Mutant(name="rt5_loop_learned_is_counts", removes="the trained table from the measurement (the count bigram is scored as 'learned')",
           target="loop", message='the gradient.trained table should approach th', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="learned_log_probs = F.log_softmax(table_model(torch.arange(V)[None])[0], dim=-1)",
                       new="learned_log_probs = count_probs.clamp(min=1e-30).log()")]),
    Mutant(name="rt5_loop_wrong_target_scored_as_counts",
           removes="next-token learning (targets = inputs) and the trained table from the measurement",
           target="loop", message='the gradient.trained table should approach th', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="y_batch.reshape(-1))", new="x_batch.reshape(-1))"),
                  Edit(cell="loop", old="learned_log_probs = F.log_softmax(table_model(torch.arange(V)[None])[0], dim=-1)",
                       new="learned_log_probs = count_probs.clamp(min=1e-30).log()")]),
    Mutant(name="rt5_loop_trained_on_val", removes="training on the text whose count bigram is the reference",
           target="loop", message='the gradient.trained table should approach th', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="loop_batches = batch_sampler(train_text,", new="loop_batches = batch_sampler(val_text,")]),
    Mutant(name="rt5_loop_no_zero_grad", removes="zeroing the gradients (they accumulate over the steps)",
           target="loop", message='the loop should start from the uniform table', skip=SKIP_LOOP,
           edits=[Edit(cell="loop", old="    optimizer.zero_grad()  # forget the previous step's gradients", new="    pass")]),
    # ---- 57f66c82: one token of context takes 0.75 nats off the unigram, on held-out text ----
    Mutant(name="rt5_context_bigram_sees_next", removes="causality: the bigram reads the next token",
           target="57f66c82", message="the bigram's logits at positions <= t with th", skip=SKIP_CONTEXT, patches=[Patch(before="fa7f419a", code=_SEES_NEXT)]),
    Mutant(name="rt5_context_bigram_reads_token_before", removes="the immediately previous token (the table reads x[t-1], not x[t])",
           target="57f66c82", message='changing x.t.1. must change the logits at t.1', skip=SKIP_CONTEXT, patches=[Patch(before="fa7f419a", code=_READS_BEFORE)]),
    Mutant(name="rt5_context_train_on_val", removes="held-out evaluation: the bigram is trained on the validation text",
           target="57f66c82", message='trained on the training text, the bigram must', skip=SKIP_CONTEXT,
           edits=[Edit(cell="fa7f419a", old="train_batches = batch_sampler(train_text,", new="train_batches = batch_sampler(val_text,")]),
    Mutant(name="rt5_context_train_plus_val", removes="held-out evaluation: the validation text is mixed into the training text",
           target="57f66c82", message='trained on the training text, the bigram must', skip=SKIP_CONTEXT,
           edits=[Edit(cell="fa7f419a", old="train_batches = batch_sampler(train_text,",
                       new="train_batches = batch_sampler(torch.cat([train_text, val_text]),")]),
    Mutant(name="rt5_context_scored_on_train", removes="held-out evaluation: the bigram is scored on its training split",
           target="57f66c82", message='trained on the training text, the bigram must', skip=SKIP_CONTEXT,
           edits=[Edit(cell="fa7f419a", old='bigram_val = evaluate_split(bigram, data, "val")',
                       new='bigram_val = evaluate_split(bigram, data, "train")')]),
    Mutant(name="rt5_context_control_from_val", removes="the held-out control (count bigram of the validation text, not the training text)",
           target="57f66c82", message='the held.out control must pay a held.out cost', skip=SKIP_CONTEXT,
           edits=[Edit(cell="57f66c82", old="train_pairs = torch.zeros(V, V).index_put_((train_text[:-1], train_text[1:]), torch.ones(train_text.numel() - 1)",
                       new="train_pairs = torch.zeros(V, V).index_put_((val_text[:-1], val_text[1:]), torch.ones(val_text.numel() - 1)")]),
    Mutant(name="rt5_context_unigram_is_uniform", removes="the unigram baseline (replaced by the uniform guess)",
           target="57f66c82", message='one token of context must take 0.65.0.85 nats', skip=SKIP_CONTEXT,
           patches=[Patch(before="57f66c82", code="unigram_val = uniform_val\n")]),
    # ---- 714c9ec3: the bigram finds real text less surprising than scrambled ----
    Mutant(name="rt5_scramble_no_shuffle", removes="the scrambling (the permutation is the identity)",
           target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SKIP_SCRAMBLE_LATE,
           edits=[Edit(cell="714c9ec3", old="torch.randperm(WIDTH, generator=window_generator)",
                       new="torch.arange(WIDTH)")]),
    Mutant(name="rt5_scramble_bigram_is_unigram", removes="the context: the 'bigram' is the unigram",
           target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SKIP_SCRAMBLE_LATE,
           patches=[Patch(before="714c9ec3", code="bigram = unigram\n")]),
    Mutant(name="rt5_scramble_untrained_bigram", removes="learned letter pairs: the bigram is the random untrained table",
           target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SKIP_SCRAMBLE_LATE,
           patches=[Patch(before="714c9ec3", code="bigram = random_bigram\n")]),
    Mutant(name="rt5_scramble_scores_own_token", removes="scoring given the previous letter (each letter scored given itself)",
           target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SKIP_SCRAMBLE_LATE,
           patches=[Patch(before="714c9ec3", code=_SCORE_UNSHIFTED)]),
    Mutant(name="rt5_scramble_skip_bigram_scoring", removes="the previous letter as context (each letter scored given the one two back)",
           target="714c9ec3", message='the bigram should find scrambled letters 2.35', skip=SKIP_SCRAMBLE_LATE,
           patches=[Patch(before="714c9ec3", code=_SCORE_SKIP)]),
    Mutant(name="rt5_scramble_trained_on_shuffled", removes="letter order in the training text (the bigram is trained on shuffled text); retargeted: 57f66c82 catches it first",
           target="57f66c82", message='one token of context must take 0.65.0.85 nats', skip=SKIP_CONTEXT,
           edits=[Edit(cell="fa7f419a", old="train_batches = batch_sampler(train_text,",
                       new="train_batches = batch_sampler(train_text[torch.randperm(train_text.numel(), generator=torch.Generator().manual_seed(1))],")]),
]
