"""The third red team's mutants of 03_fixed_window_neural_lm.ipynb, written from the notebook alone by a helper that had
not seen tests/mutants/: 16 of 19 killed in its run on 2026-12-06; the 3 survivors (rt5_targets_are_inputs,
rt5_mlp_curve_fixed_window, rt5_control_untrained) mended and killed since. Each message is the assert that kills it."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"

# cells not needed by the early shows
LATE = ["cell-09", "unseen-contexts", "cell-15", "cell-19", "cell-24", "cell-25", "cell-27", "cell-28", "cell-30",
        "cell-31", "ex4-solution", "ex4-test"]
NO_CORPUS_SHOWS = ["cell-09", "cell-11", "cell-13", "unseen-contexts", "class-pairs-show"]

# The model's windows shifted by one: position t reads x_{t-N+2} .. x_{t+1} (the token it predicts).
_PEEK = """
import utils.window_mlp as _wm
def _peek_forward(self, idx):
    shifted = torch.cat([idx[:, 1:], idx[:, -1:]], dim=1)  # (B, T): position t now holds x_{t+1}
    return self.logits_from_windows(_wm.sliding_windows(shifted, self.window, self.config.pad_id))
_wm.WindowMLPLM.forward = _peek_forward
"""

MUTANTS = [
    # ---- cell-08: window_mlp_learns_beyond_unigram
    Mutant(name="rt5_targets_are_inputs", removes="next-token prediction: the batches' targets are the inputs "
           "themselves (copy task), so the loss 'below unigram' is not about predicting the next token",
           target="cell-08", message=r"the inputs shifted by one: the next tokens|clearly below the unigram",
           patches=[Patch(before="cell-08", code="""
_orig_batch_sampler = batch_sampler
def batch_sampler(*args, **kwargs):
    draw = _orig_batch_sampler(*args, **kwargs)
    def copy_batch():
        x, y = draw()
        return x, x.clone()  # target = the current token
    return copy_batch
""")], skip=LATE),
    Mutant(name="rt5_window_is_last_token", removes="the N-token window: every slot of the window holds the "
           "current token, so the model is a neural bigram", target="cell-08", message=r"clearly below the unigram",
           patches=[Patch(before="cell-08", code="""
import utils.window_mlp as _wm
def _last_only(self, idx):
    return self.logits_from_windows(idx[:, :, None].expand(-1, -1, self.window))
_wm.WindowMLPLM.forward = _last_only
""")], skip=LATE),
    Mutant(name="rt5_window_sees_next", removes="causality: the window is shifted by one and holds the token "
           "it predicts", target="cell-08", message=r"clearly below the unigram|reads the future", patches=[Patch(before="cell-08", code=_PEEK)], skip=LATE),
    # ---- cell-11: window_mlp_beats_bigram
    Mutant(name="rt5_eval_peeks_target", removes="a fair evaluation: after training, the MLP's windows are "
           "shifted so that it reads the token it is scored on", target="cell-11", message=r"should beat the bigram",
           patches=[Patch(before="cell-11", code=_PEEK)], skip=LATE),
    Mutant(name="rt5_mlp_reset_before_eval", removes="training: the MLP scored is re-initialised",
           target="cell-11", message=r"should beat the bigram", patches=[Patch(before="cell-11", code="""
set_seed(SEED)
model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, d_hidden=D_HIDDEN)).to(device)
""")], skip=LATE),
    Mutant(name="rt5_ngrams_not_kneser_ney", removes="Kneser-Ney smoothing of the same-context n-grams "
           "(unsmoothed maximum likelihood instead)", target="cell-11", message=r"should not beat the Kneser-Ney",
           edits=[Edit(cell="cell-11", old='ngram = NGramLM.from_counts(counts, n, smoothing="kneser_ney")',
                       new='ngram = NGramLM.from_counts(counts, n, smoothing="add_k", k=1.0)')], skip=LATE),
    # ---- cell-13: mlp_smaller_than_stored_ngrams
    Mutant(name="rt5_trained_mlp_wide", removes="the small hidden layer: the trained model has 8x D_HIDDEN",
           target="cell-13", message=r"point at N = WINDOW should be the trained model|far smaller than the n-gram model",
           edits=[Edit(cell="cell-04", old="model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, d_hidden=D_HIDDEN))",
                       new="model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, d_hidden=8 * D_HIDDEN))")],
           skip=LATE),
    Mutant(name="rt5_mlp_curve_fixed_window", removes="the dependence on N of the MLP curve: every point is "
           "counted with window=WINDOW, so the growth per context token measured is 0",
           target="cell-13", message=r"one E x H slice of W_1",
           edits=[Edit(cell="cell-13", old="WindowMLPLM(WindowMLPConfig(V, window=n, d_embed",
                       new="WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed")], skip=LATE),
    Mutant(name="rt5_stored_counts_highest_order_only", removes="the lower orders a Kneser-Ney model stores: "
           "the n-gram size is taken as one V-entry row per context", target="cell-13", message=r"far smaller than the n-gram model|far more stored n-grams",
           edits=[Edit(cell="cell-13", old="ngram_entries = {n: V + sum(stored[m] for m in stored if m <= n) for n in stored}",
                       new="ngram_entries = {n: V * 50 for n in stored}")], skip=LATE),
    # ---- class-pairs-show: mlp_scores_new_pairs
    Mutant(name="rt5_pair_mlp_window_one", removes="reading a: the pair MLP's window holds only b",
           target="class-pairs-show", message=r"far better than Kneser-Ney|use both tokens",
           edits=[Edit(cell="class-pairs-show", old="window=2, d_embed=D_EMBED, d_hidden=64",
                       new="window=1, d_embed=D_EMBED, d_hidden=64")], skip=LATE),
    Mutant(name="rt5_control_untrained", removes="training of the control: the no-classes control MLP is never "
           "trained, so its loss says nothing about sharing", target="class-pairs-show", message=r"control MLP should have learned its training pairs",
           edits=[Edit(cell="class-pairs-show",
                       old='control_mlp, _ = train_pair_mlp(batches_from(unshared.sequences("train", 5000, control_generator), 64, control_generator))',
                       new='control_mlp = WindowMLPLM(WindowMLPConfig(unshared.vocab_size, window=2, d_embed=D_EMBED, d_hidden=64)).to(device)')],
           skip=LATE),
    Mutant(name="rt5_control_has_classes", removes="the control's missing classes: the control task is the shared one",
           target="class-pairs-show", message=r"the sharing is the cause|confidently wrong on held-out pairs",
           edits=[Edit(cell="class-pairs-show", old="unshared = ClassPairTask(shared=False)",
                       new="unshared = ClassPairTask(shared=True)")], skip=LATE),
    Mutant(name="rt5_pair_mlp_sees_heldout", removes="novelty of the held-out pairs: the MLP trains on held-out sequences too",
           target="class-pairs-show", message=r"new to both models",
           edits=[Edit(cell="class-pairs-show", old="pair_batches = batches_from(pair_train, 64, pair_generator)",
                       new='pair_batches = batches_from(torch.cat([pair_train, pair_task.sequences("heldout", 5000, pair_generator)]), 64, pair_generator)')],
           skip=LATE),
    # ---- cell-16: narrow_window_at_chance
    Mutant(name="rt5_narrow_is_wide", removes="the narrow window: the 'narrow' model has the key inside its window",
           target="cell-16", message=r"should sit at chance",
           edits=[Edit(cell="cell-15", old='f"window N={WINDOW}": WindowMLPLM(WindowMLPConfig(task.vocab_size, window=WINDOW,',
                       new='f"window N={WINDOW}": WindowMLPLM(WindowMLPConfig(task.vocab_size, window=task.length,')],
           skip=NO_CORPUS_SHOWS + ["cell-19", "cell-20"]),
    Mutant(name="rt5_narrow_untrained", removes="training of the narrow window (lr 1e-9)", target="cell-16", message=r"should sit at chance",
           edits=[Edit(cell="cell-15", old="TrainConfig(steps=RECALL_STEPS, lr=1e-2,",
                       new="TrainConfig(steps=RECALL_STEPS, lr=1e-9 if recall_model.window == WINDOW else 1e-2,")],
           skip=NO_CORPUS_SHOWS + ["cell-19", "cell-20"]),
    Mutant(name="rt5_control_window_short_by_one", removes="the control's wide-enough window: it is one token "
           "too short to hold the key", target="cell-16", message=r"wide enough window should learn",
           edits=[Edit(cell="cell-15", old="window=task.length,", new="window=task.length - 1,")],
           skip=NO_CORPUS_SHOWS + ["cell-19", "cell-20"]),
    # ---- cell-20: embeddings_group_similar_tokens
    Mutant(name="rt5_embeddings_untrained", removes="training: the 'trained' embeddings are the initial ones",
           target="cell-20", message=r"digits should be more alike|training should make the digits",
           edits=[Edit(cell="cell-19", old="C = model.embedding.weight.detach().cpu()  # (V, E)",
                       new="C = initial_C.clone()  # (V, E)")], skip=NO_CORPUS_SHOWS + ["cell-15", "cell-16"]),
    Mutant(name="rt5_initial_c_aliased", removes="the untrained baseline: initial_C is a view of the live weights "
           "(no clone), so it equals the trained embeddings", target="cell-20", message=r"training should make the digits|digits should be more alike",
           edits=[Edit(cell="cell-04", old="initial_C = model.embedding.weight.detach().cpu().clone()",
                       new="initial_C = model.embedding.weight.detach().cpu()")],
           skip=NO_CORPUS_SHOWS + ["cell-15", "cell-16"]),
    Mutant(name="rt5_embeddings_frozen", removes="learning of the embeddings: the table is frozen at its init",
           target="cell-20", message=r"digits should be more alike|training should make the digits",
           patches=[Patch(before="cell-08", code="model.embedding.weight.requires_grad_(False)")],
           skip=NO_CORPUS_SHOWS + ["cell-15", "cell-16"]),
]
