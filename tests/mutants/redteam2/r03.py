"""Second red team's mutants of 03_fixed_window_neural_lm.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 18 of 19 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"

# A window that ends one token later than it should: position t reads x_{t-N+2} .. x_{t+1}, the token it predicts.
LEAK_NEXT = """
import utils.window_mlp as _wm
_orig_sw = _wm.sliding_windows
def _leaky_windows(idx, window, pad_id=None):
    shifted = torch.cat([idx[:, 1:], idx[:, -1:]], dim=1)  # (B, T): token t+1 at position t
    return _orig_sw(shifted, window, pad_id)
_wm.sliding_windows = _leaky_windows
print("MUTANT ACTIVE: window reads the next token")
"""
# Off by one the other way: position t reads x_{t-N} .. x_{t-1} (not its own token).
LAG_ONE = """
import utils.window_mlp as _wm
_orig_sw = _wm.sliding_windows
def _lagged_windows(idx, window, pad_id=None):
    shifted = torch.cat([idx[:, :1], idx[:, :-1]], dim=1)  # (B, T): token t-1 at position t
    return _orig_sw(shifted, window, pad_id)
_wm.sliding_windows = _lagged_windows
print("MUTANT ACTIVE: window lags by one token")
"""
MODEL_LINE = "model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, d_hidden=D_HIDDEN)).to(device)"
PROBES_START = "# Where the gain comes from: the N tokens up to t, and nothing after t. One token changed at a time:"
PROBES_END = '"changing the oldest token of the window must change the prediction"'
# Turn cell-08's read-what probes into a string, so a mutant meant for a later show gets past cell-08.
PROBES_OFF = [Edit("cell-08", PROBES_START, '"""'), Edit("cell-08", PROBES_END, PROBES_END.replace('"', "'") + '\n"""')]
# ... and its gain bound (per mode, added after this team's run), which a leaky or one-token window breaks.
GAIN = "assert GAIN_BAND[0] < unigram_nll - mlp_val_nll < GAIN_BAND[1],"
PROBES_OFF += [Edit("cell-08", GAIN, GAIN.replace("assert ", "assert True or "))]

SKIP_08 = ["cell-06"]
SKIP_11 = ["cell-06", "cell-09"]
SKIP_PAIRS = ["cell-04", "cell-06", "cell-08", "cell-09", "cell-11", "cell-13", "unseen-contexts"]
SKIP_16 = SKIP_PAIRS + ["class-pairs-show"]
SKIP_20 = ["cell-06", "cell-09", "cell-11", "cell-13", "unseen-contexts", "class-pairs-show", "cell-15", "cell-16"]

MUTANTS = [
    # ---- cell-08 window_mlp_learns_beyond_unigram
    Mutant("m08_reads_next_token", "causality: the window ends at t+1, so the model reads the token it predicts",
           "cell-08", ".", patches=[Patch("cell-08", LEAK_NEXT)], skip=SKIP_08),
    Mutant("m08_window_lags_one", "off-by-one window: position t reads x_{t-N}..x_{t-1}, not its own token",
           "cell-08", ".", patches=[Patch("cell-08", LAG_ONE)], skip=SKIP_08),
    Mutant("m08_window_one_token", "the N-token window: the model is built with N=1 (a neural bigram)",
           "cell-08", ".", edits=[Edit("cell-04", MODEL_LINE, MODEL_LINE.replace("window=WINDOW", "window=1"))],
           skip=SKIP_08),
    # ---- cell-11 window_mlp_beats_bigram
    Mutant("m11_untrained_mlp", "training: the MLP scored is a fresh, untrained model",
           "cell-11", ".", patches=[Patch("cell-11", "model = WindowMLPLM(WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, "
                                                      "d_hidden=D_HIDDEN)).to(device)\nprint('MUTANT ACTIVE: untrained')")],
           skip=SKIP_11 + ["cell-08"]),
    Mutant("m11_window_one_token", "context beyond one token: the MLP is built with N=1, like the bigram",
           "cell-11", ".", edits=[Edit("cell-04", MODEL_LINE, MODEL_LINE.replace("window=WINDOW", "window=1"))] + PROBES_OFF,
           skip=SKIP_11),
    Mutant("m11_reads_next_token", "causality: the MLP's window includes the token it predicts (leak)",
           "cell-11", ".", patches=[Patch("cell-08", LEAK_NEXT)], edits=PROBES_OFF, skip=SKIP_11),
    # ---- cell-13 mlp_smaller_than_stored_ngrams
    Mutant("m13_one_hot_inputs", "small shared embeddings: inputs are V-wide (one-hot-sized), so each context token costs V*H",
           "cell-13", ".", edits=[Edit("cell-13", "WindowMLPConfig(V, window=n, d_embed=D_EMBED,",
                                       "WindowMLPConfig(V, window=n, d_embed=V,")], skip=SKIP_11),
    Mutant("m13_ngrams_from_short_text", "a large corpus: the n-gram sizes come from 3,000 training characters",
           "cell-13", ".", patches=[Patch("cell-13", "_c = NGramCounts.from_sequences([train_stream[:3000]], V, WINDOW + 1)\n"
                                      "stored = {n - 1: NGramLM.from_counts(_c, n, smoothing='kneser_ney').num_ngrams "
                                      "for n in range(2, WINDOW + 2)}\nprint('MUTANT ACTIVE', stored)")], skip=SKIP_11),
    Mutant("m13_hidden_grows_with_window", "linear growth: the hidden layer is widened with the window (H*N)",
           "cell-13", ".", edits=[Edit("cell-13", "d_hidden=D_HIDDEN)).num_parameters()",
                                       "d_hidden=D_HIDDEN * n)).num_parameters()")], skip=SKIP_11),
    # ---- class-pairs-show mlp_scores_new_pairs
    Mutant("pairs_mlp_window_one", "reading both tokens: the MLP sees only b (N=1)",
           "class-pairs-show", ".", edits=[Edit("class-pairs-show", "window=2, d_embed=D_EMBED", "window=1, d_embed=D_EMBED")],
           skip=SKIP_PAIRS),
    Mutant("pairs_mlp_trained_on_heldout", "held-out pairs never seen: the MLP also trains on 5,000 held-out sequences",
           "class-pairs-show", ".", edits=[Edit("class-pairs-show", "train(pair_mlp, batches_from(pair_train, 64, pair_generator),",
               "train(pair_mlp, batches_from(torch.cat([pair_train, pair_task.sequences('heldout', 5000, pair_generator)]), 64, pair_generator),")],
           skip=SKIP_PAIRS),
    Mutant("pairs_unshared_classes", "shared class structure: every pair gets its own random follower",
           "class-pairs-show", ".", edits=[Edit("class-pairs-show", "ClassPairTask(shared=PAIRS_SHARED)", "ClassPairTask(shared=False)")],
           skip=SKIP_PAIRS),
    Mutant("pairs_mlp_few_steps", "training: the pair MLP gets 5 steps instead of PAIR_STEPS",
           "class-pairs-show", ".", edits=[Edit("class-pairs-show", "TrainConfig(steps=PAIR_STEPS,", "TrainConfig(steps=5,")],
           skip=SKIP_PAIRS),
    # ---- cell-16 narrow_window_at_chance
    Mutant("recall_narrow_untrained", "training of the narrow window: it is never trained",
           "cell-16", ".", edits=[Edit("cell-15", "train(recall_model, task.sampler(32, generator),",
                                       "if 'control' in name: train(recall_model, task.sampler(32, generator),")],
           skip=SKIP_16),
    Mutant("recall_key_inside_window", "the key outside the window: the last distractor repeats the key",
           "cell-16", ".", patches=[Patch("cell-15", "from utils.synthetic import RecallTask as _RT\n_orig_batch = _RT.batch\n"
                                      "def _leaky_batch(self, batch_size, generator=None):\n"
                                      "    x, y = _orig_batch(self, batch_size, generator)\n"
                                      "    x = x.clone(); x[:, -2] = x[:, 0]\n    return x, y\n"
                                      "_RT.batch = _leaky_batch\nprint('MUTANT ACTIVE: key copied next to ?')")],
           skip=SKIP_16),
    Mutant("recall_control_narrow", "the control's wide window: the control is built with N=WINDOW too",
           "cell-16", ".", edits=[Edit("cell-15", "window=task.length,", "window=WINDOW,")], skip=SKIP_16),
    # ---- cell-20 embeddings_group_similar_tokens
    Mutant("emb_untrained_table", "training: the embeddings inspected are the initial ones",
           "cell-20", ".", edits=[Edit("cell-19", "C = model.embedding.weight.detach().cpu()  # (V, E)",
                                       "C = initial_C.clone()  # (V, E)")], skip=SKIP_20),
    Mutant("emb_initial_not_cloned", "the untrained baseline: initial_C aliases the live weights (no .clone())",
           "cell-20", ".", edits=[Edit("cell-04", "model.embedding.weight.detach().cpu().clone()",
                                       "model.embedding.weight.detach().cpu()")], skip=SKIP_20),
    Mutant("emb_rows_permuted", "the token-to-row mapping: rows of C are permuted (a vocabulary mix-up)",
           "cell-20", ".", edits=[Edit("cell-19", "C = model.embedding.weight.detach().cpu()  # (V, E)",
                                       "C = model.embedding.weight.detach().cpu()[torch.randperm(V, generator=torch.Generator().manual_seed(1))]  # (V, E)")],
           skip=SKIP_20),
]

# Unmutated controls with the same skip lists (not mutants: they must survive).
CONTROLS = [
    Mutant("ctl_08", "control", "cell-08", ".", patches=[Patch("cell-08", "pass")], skip=SKIP_08),
    Mutant("ctl_13", "control", "cell-13", ".", patches=[Patch("cell-13", "pass")], skip=SKIP_11),
    Mutant("ctl_pairs", "control", "class-pairs-show", ".", patches=[Patch("class-pairs-show", "pass")], skip=SKIP_PAIRS),
    Mutant("ctl_16", "control", "cell-16", ".", patches=[Patch("cell-16", "pass")], skip=SKIP_16),
    Mutant("ctl_20", "control", "cell-20", ".", patches=[Patch("cell-20", "pass")], skip=SKIP_20),
]


import dataclasses as _dataclasses  # noqa: E402

_KILLED = ['emb_initial_not_cloned', 'emb_rows_permuted', 'emb_untrained_table', 'm08_reads_next_token', 'm08_window_lags_one', 'm08_window_one_token', 'm11_reads_next_token', 'm11_untrained_mlp', 'm11_window_one_token', 'm13_hidden_grows_with_window', 'm13_ngrams_from_short_text', 'm13_one_hot_inputs', 'pairs_mlp_few_steps', 'pairs_mlp_window_one', 'pairs_unshared_classes', 'recall_control_narrow', 'recall_key_inside_window', 'recall_narrow_untrained']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
