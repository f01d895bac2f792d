"""Mutants of notebook 03: each removes the cause of one show (training, sparsity, shared classes, the window, learning)."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"

PARAMETERS, FORWARD, TRAIN, SAMPLES, VERSUS_NGRAMS, SIZES = "cell-01", "cell-06", "cell-08", "cell-09", "cell-11", "cell-13"
UNSEEN, PAIRS = "unseen-contexts", "class-pairs-show"
RECALL_TRAIN, RECALL, PROJECTION, EMBEDDINGS = "cell-15", "cell-16", "cell-19", "cell-20"
CORPUS_CELLS = [FORWARD, TRAIN, SAMPLES, VERSUS_NGRAMS, SIZES, UNSEEN]
PAIR_SKIP = ["cell-04", *CORPUS_CELLS]  # the class-pair task needs only the parameters and the set-up

READS_NEXT_TOKEN = Patch(before=TRAIN, code="""
import torch as _torch
_forward = model.forward
model.forward = lambda idx: _forward(_torch.roll(idx, -1, dims=1))  # the window ends at x[t+1], the token it predicts
""")

MUTANTS = [
    Mutant(name="mlp_untrained", removes="training: the window model takes one step",
           target=TRAIN, message=r"clearly below the unigram",
           edits=[Edit(cell=PARAMETERS, old="TRAIN_STEPS = pick(full=1500, fast=200)", new="TRAIN_STEPS = 1")],
           skip=[FORWARD]),
    Mutant(name="window_reads_next_token", removes="causality: the window is shifted by one and holds the token it predicts",
           target=TRAIN, message=r"reads the future|clearly below the unigram",
           patches=[READS_NEXT_TOKEN], skip=[FORWARD]),
    Mutant(name="window_one_token_shorter", removes="the oldest token of the window: the model reads N-1 tokens",
           target=TRAIN, message=r"oldest token of the window must change the prediction|N places back",
           patches=[Patch(before=TRAIN, code="model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW - 1, d_embed=D_EMBED, "
                                             "d_hidden=D_HIDDEN)).to(device)")],
           skip=[FORWARD]),
    Mutant(name="mlp_reset_before_comparison", removes="training: the compared MLP is a fresh, untrained one",
           target=VERSUS_NGRAMS, message=r"should beat the bigram",
           patches=[Patch(before=VERSUS_NGRAMS, code="model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, "
                                                     "d_embed=D_EMBED, d_hidden=D_HIDDEN)).to(device)")],
           skip=[FORWARD, SAMPLES]),
    Mutant(name="few_distinct_contexts", removes="the many distinct contexts of real text: n-grams counted on 2,000 characters",
           target=SIZES, message=r"far more stored n-grams|far smaller than the n-gram model",
           patches=[Patch(before=SIZES, code="_few = NGramCounts.from_sequences([train_stream[:2000]], V, WINDOW + 1)\n"
                                             "stored = {n - 1: NGramLM.from_counts(_few, n, smoothing='kneser_ney').num_ngrams "
                                             "for n in range(2, WINDOW + 2)}")],
           skip=[FORWARD, SAMPLES]),
    Mutant(name="pairs_not_shared", removes="the shared rule: every token pair gets its own random follower",
           target=PAIRS, message=r"far better than Kneser-Ney",
           edits=[Edit(cell=PAIRS, old="ClassPairTask(shared=PAIRS_SHARED)", new="ClassPairTask(shared=False)")],
           skip=PAIR_SKIP),
    Mutant(name="pair_mlp_untrained", removes="training: the pair MLP takes one step",
           target=PAIRS, message=r"far better than Kneser-Ney|use both tokens",
           edits=[Edit(cell=PARAMETERS, old="PAIR_STEPS = 150", new="PAIR_STEPS = 1")],
           skip=PAIR_SKIP),
    Mutant(name="pair_mlp_sees_b_only", removes="the first token: the pair MLP's window holds b alone",
           target=PAIRS, message=r"far better than Kneser-Ney|use both tokens",
           edits=[Edit(cell=PAIRS, old="window=2, d_embed=D_EMBED", new="window=1, d_embed=D_EMBED")],
           skip=PAIR_SKIP),
    Mutant(name="held_out_pairs_counted", removes="the held-out pairs' novelty: half the training sequences are held-out pairs",
           target=PAIRS, message=r"far better than Kneser-Ney|new to both models",
           edits=[Edit(cell=PAIRS, old='pair_task.sequences("train", 5000, pair_generator)',
                       new='torch.cat([pair_task.sequences("train", 2500, pair_generator), '
                           'pair_task.sequences("heldout", 2500, pair_generator)])')],
           skip=PAIR_SKIP),
    Mutant(name="narrow_window_untrained", removes="training of the narrow window: a fresh model is scored",
           target=RECALL, message=r"should sit at chance",
           patches=[Patch(before=RECALL, code='recall_models[f"window N={WINDOW}"] = WindowMLPLM(WindowMLPConfig('
                                              'task.vocab_size, window=WINDOW, d_embed=16, d_hidden=64)).to(device)')],
           skip=[*CORPUS_CELLS, PAIRS]),
    Mutant(name="control_window_narrow", removes="the control's wide window: it sees only N tokens too",
           target=RECALL, message=r"wide enough window should learn",
           edits=[Edit(cell=RECALL_TRAIN, old="window=task.length,", new="window=WINDOW,")],
           skip=[*CORPUS_CELLS, PAIRS]),
    Mutant(name="embeddings_untrained", removes="training: the embeddings are the initial random ones",
           target=EMBEDDINGS, message=r"digits should be more alike|training should make the digits",
           patches=[Patch(before=PROJECTION, code="with torch.no_grad():\n    model.embedding.weight.copy_(initial_C.to(device))")],
           skip=[FORWARD, SAMPLES, VERSUS_NGRAMS, SIZES, UNSEEN, PAIRS, RECALL_TRAIN, RECALL]),
]


# The second red team's survivor (stop 38), re-created here: killed by the check that no held-out pair was trained on.
MUTANTS.append(
    Mutant(name="pair_mlp_trained_on_heldout", removes="the held-out pairs' novelty for the MLP alone: its batches also draw held-out pairs",
           target=PAIRS, message=r"new to both models",
           edits=[Edit(cell=PAIRS, old="pair_batches = batches_from(pair_train, 64, pair_generator)",
                       new="pair_batches = batches_from(torch.cat([pair_train, pair_task.sequences('heldout', 5000, pair_generator)]), "
                           "64, pair_generator)")],
           skip=PAIR_SKIP))


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("03")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as adopted5  # noqa: E402

MUTANTS += adopted5("03")  # the third red team's mutants, its 3 survivors mended since (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("03")  # the fifth red team's mutants (slow tier)
