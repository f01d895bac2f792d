"""Red team A: mutants of notebook 03 (fixed-window neural LM)."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "03_fixed_window_neural_lm.ipynb"

# --- shared pieces -------------------------------------------------------------------------------------------------
# Off-by-one in the window builder: position t reads x_{t-N+2} .. x_{t+1}, i.e. the token it must predict.
LEAK = src_patch("utils.window_mlp", "sliding_windows", [(
    "padded = torch.cat([pad_source.expand(-1, window - 1), idx], dim=1)",
    "padded = torch.cat([pad_source.expand(-1, window - 1), idx[:, 1:], idx[:, -1:]], dim=1)")])
# The training of cell-08 without its asserts (used where cell-08 is skipped because it would catch the bug first).
TRAIN = """
train_batches = batch_sampler(train_stream, BATCH_SIZE, BLOCK_SIZE, generator=generator)
config = TrainConfig(steps=TRAIN_STEPS, lr=1e-2, warmup_steps=min(100, TRAIN_STEPS // 10), progress=False)
history = train(model, train_batches, config)
"""
SHUFFLED_TRAIN = """
_perm = torch.randperm(train_stream.numel(), generator=torch.Generator().manual_seed(0))
train_batches = batch_sampler(train_stream[_perm], BATCH_SIZE, BLOCK_SIZE, generator=generator)  # characters shuffled
config = TrainConfig(steps=TRAIN_STEPS, lr=1e-2, warmup_steps=min(100, TRAIN_STEPS // 10), progress=False)
history = train(model, train_batches, config)
"""
DIGITLESS_TRAIN = """
_digit_ids = torch.tensor([data.tokenizer.stoi[c] for c in '0123456789' if c in data.tokenizer.stoi])
_digitless = torch.where(torch.isin(train_stream, _digit_ids), data.tokenizer.stoi['x'], train_stream)
train_batches = batch_sampler(_digitless, BATCH_SIZE, BLOCK_SIZE, generator=generator)  # digits never read
config = TrainConfig(steps=TRAIN_STEPS, lr=1e-2, warmup_steps=min(100, TRAIN_STEPS // 10), progress=False)
history = train(model, train_batches, config)
"""
NOOP = "pass  # baseline: no change\n"

SKIP_08 = ["cell-06"]
SKIP_11_NOTRAIN = ["cell-06", "cell-08", "cell-09"]
SKIP_13 = ["cell-06", "cell-09"]
SKIP_PAIRS = ["cell-06", "cell-08", "cell-09", "cell-11", "cell-13", "unseen-contexts"]
SKIP_16 = ["cell-06", "cell-08", "cell-09", "cell-11", "cell-13", "unseen-contexts", "class-pairs-show"]
SKIP_20 = ["cell-06", "cell-09", "cell-11", "cell-13", "unseen-contexts", "class-pairs-show", "cell-15", "cell-16"]
SKIP_20_NOTRAIN = ["cell-08"] + SKIP_20

MODEL_LINE = "WindowMLPConfig(V, window=WINDOW, d_embed=D_EMBED, d_hidden=D_HIDDEN)"

MUTANTS = [
    # ---------------- cell-08: window_mlp_learns_beyond_unigram ----------------
    Mutant("a08_window_reads_target",
           "the model sees the future: an off-by-one in sliding_windows puts x_{t+1}, the target, in the window at t",
           "cell-08", r"training should take|future",
           patches=[Patch("cell-08", LEAK)], skip=SKIP_08),
    Mutant("a08_lr_typo_untrained",
           "training: a learning-rate typo (1e-6) leaves the model essentially untrained",
           "cell-08", r"training should take",
           edits=[Edit("cell-08", "lr=1e-2,", "lr=1e-6,")], skip=SKIP_08),
    Mutant("a08_targets_are_inputs",
           "the next-token target: the sampler returns y = x (the model is trained to echo the current token)",
           "cell-08", r"shifted by one|training should take",
           patches=[Patch("cell-08", src_patch("utils.batching", "random_windows", [(
               "return windows[:, :-1], windows[:, 1:]", "return windows[:, 1:], windows[:, 1:]")]))],
           skip=SKIP_08),
    Mutant("a08_window_one_too_wide",
           "the fixed N: the model is built with N+1 tokens, so the token N places back does reach the prediction",
           "cell-08", r"N places back",
           edits=[Edit("cell-04", MODEL_LINE, MODEL_LINE.replace("window=WINDOW", "window=WINDOW + 1"))],
           skip=SKIP_08),

    # ---------------- cell-11: window_mlp_beats_bigram ----------------
    Mutant("a11_model_untrained",
           "training: the training cell was not run, the MLP scored is the initialised one",
           "cell-11", r"beat the bigram",
           patches=[Patch("cell-11", NOOP)], skip=SKIP_11_NOTRAIN),
    Mutant("a11_window_reads_target",
           "honest windows: the MLP is trained and scored with the target inside its window (off-by-one leak)",
           "cell-11", r"should not beat the Kneser-Ney",
           patches=[Patch("cell-11", LEAK), Patch("cell-11", TRAIN)], skip=SKIP_11_NOTRAIN),
    Mutant("a11_neural_bigram",
           "the N-token context: the MLP is built with window 1 (a neural bigram) while the notebook says N",
           "cell-11", r"beat the bigram",
           edits=[Edit("cell-04", MODEL_LINE, MODEL_LINE.replace("window=WINDOW", "window=1"))],
           patches=[Patch("cell-11", TRAIN)], skip=SKIP_11_NOTRAIN),

    # ---------------- cell-13: mlp_smaller_than_stored_ngrams ----------------
    Mutant("a13_curve_config_swapped",
           "the curve is the trained model: positional args swap d_embed and d_hidden (E*H unchanged, not the model)",
           "cell-13", r"trained model|E x H",
           edits=[Edit("cell-13", "WindowMLPConfig(V, window=n, d_embed=D_EMBED, d_hidden=D_HIDDEN)",
                       "WindowMLPConfig(V, n, D_HIDDEN, D_EMBED)")], skip=SKIP_13),
    Mutant("a13_curve_off_by_one",
           "the curve is the trained model: the curve's point at N is the model with N+1 tokens",
           "cell-13", r"trained model",
           edits=[Edit("cell-13", "window=n, d_embed", "window=n + 1, d_embed")], skip=SKIP_13),
    Mutant("a13_untied_slot_embeddings",
           "growth by one E x H slice: every window slot has its own V x E embedding table (growth E*H + V*E)",
           "cell-13", r"E x H|far smaller|trained model",
           patches=[Patch("cell-04", """
class WindowMLPLM(WindowMLPLM):  # a rewrite: each window slot gets its own embedding table
    def __init__(self, config):
        super().__init__(config)
        self.embedding = torch.nn.Embedding(config.window * config.vocab_size, config.d_embed)

    def logits_from_windows(self, contexts):
        slots = torch.arange(self.window, device=contexts.device) * self.vocab_size
        flat = self.embedding(contexts.long() + slots).flatten(-2)
        return self.output(torch.tanh(self.hidden(flat)))
""")], skip=SKIP_13),

    # ---------------- class-pairs-show: mlp_scores_new_pairs ----------------
    Mutant("apairs_heldout_in_batches",
           "never seen: the MLP's training sequences also hold held-out pairs (the test rows)",
           "class-pairs-show", r"new to both models",
           edits=[Edit("class-pairs-show", "pair_batches = batches_from(pair_train, 64, pair_generator)",
                       "pair_batches = batches_from(torch.cat([pair_train, pair_tests['held-out pairs']]), 64, pair_generator)")],
           skip=SKIP_PAIRS),
    Mutant("apairs_finetuned_on_heldout",
           "never seen: after the logged training the MLP is fine-tuned on the held-out test rows (not through `logged`)",
           "class-pairs-show", r"new to both models|far better|use both tokens|lost on the held-out|trained on the logged batches",
           edits=[Edit("class-pairs-show", "pair_mlp, mlp_saw = train_pair_mlp(pair_batches)\n",
                       "pair_mlp, mlp_saw = train_pair_mlp(pair_batches)\n"
                       "train(pair_mlp, batches_from(pair_tests['held-out pairs'], 64, pair_generator), "
                       "TrainConfig(steps=50, lr=1e-2, warmup_steps=5, progress=False))\n")],
           skip=SKIP_PAIRS),
    Mutant("apairs_no_shared_rule",
           "the class rule: the main task is built with shared=False (random followers), PAIRS_SHARED still True",
           "class-pairs-show", r"far better than Kneser-Ney|use both tokens|sharing is the cause",
           edits=[Edit("class-pairs-show", "pair_task = ClassPairTask(shared=PAIRS_SHARED)",
                       "pair_task = ClassPairTask(shared=False)")], skip=SKIP_PAIRS),
    Mutant("apairs_mlp_reads_b_only",
           "reading both tokens: the pair MLP's window is 1, it sees only b",
           "class-pairs-show", r"far better than Kneser-Ney|use both tokens",
           edits=[Edit("class-pairs-show", "window=2, d_embed=D_EMBED, d_hidden=64", "window=1, d_embed=D_EMBED, d_hidden=64")],
           skip=SKIP_PAIRS),
    Mutant("apairs_control_untrained",
           "a trained control: the no-sharing control MLP is left untrained",
           "class-pairs-show", r"control MLP should have learned|confidently",
           edits=[Edit("class-pairs-show",
                       'control_mlp, _ = train_pair_mlp(batches_from(unshared.sequences("train", 5000, control_generator), 64, control_generator))',
                       "control_mlp = WindowMLPLM(WindowMLPConfig(unshared.vocab_size, window=2, d_embed=D_EMBED, d_hidden=64)).to(device)")],
           skip=SKIP_PAIRS),
    Mutant("apairs_control_shares",
           "the control's lack of sharing: the 'unshared' control is built with shared=True",
           "class-pairs-show", r"sharing is the cause|confidently",
           edits=[Edit("class-pairs-show", "unshared = ClassPairTask(shared=False)", "unshared = ClassPairTask(shared=True)")],
           skip=SKIP_PAIRS),

    # ---------------- cell-16: narrow_window_at_chance ----------------
    Mutant("a16_narrow_sees_key",
           "the key outside the window: the 'narrow' model is built with window L+2 (copy-paste)",
           "cell-16", r"sit at chance|chance accuracy|outside the window",
           edits=[Edit("cell-15", "window=WINDOW, d_embed=16, d_hidden=64)),", "window=task.length, d_embed=16, d_hidden=64)),")],
           skip=SKIP_16),
    Mutant("a16_narrow_untrained",
           "training of the narrow window: only the wide control is trained",
           "cell-16", r"sit at chance|chance accuracy",
           edits=[Edit("cell-15", "for name, recall_model in recall_models.items():",
                       "for name, recall_model in list(recall_models.items())[1:]:")], skip=SKIP_16),
    Mutant("a16_control_window_short",
           "the control's window holding the key: control built with L+1 tokens, the key just outside",
           "cell-16", r"wide enough window should learn",
           edits=[Edit("cell-15", "window=task.length,", "window=task.length - 1,")], skip=SKIP_16),

    # ---------------- cell-20: embeddings_group_similar_tokens ----------------
    Mutant("a20_initial_embeddings",
           "training of the embeddings: C is taken from the initial weights",
           "cell-20", r"99%|more alike than they were",
           edits=[Edit("cell-19", "C = model.embedding.weight.detach().cpu()", "C = initial_C")], skip=SKIP_20),
    Mutant("a20_digits_never_in_training",
           "digits used alike in the text: every digit of the training text is replaced by 'x' (digits never read)",
           "cell-20", r"99%|more alike than they were",
           edits=[Edit("cell-04", "train_stream = token_stream(data, \"train\")  # names: the items joined by the boundary '.'",
                       "train_stream = token_stream(data, \"train\")  # names: the items joined by the boundary '.'\n"
                       "_digit_ids = torch.tensor([data.tokenizer.stoi[c] for c in '0123456789' if c in data.tokenizer.stoi])\n"
                       "train_stream = torch.where(torch.isin(train_stream, _digit_ids), data.tokenizer.stoi['x'], train_stream)")],
           skip=SKIP_20),
    Mutant("a20_digits_unseen_v2",
           "digits used alike in the text: the model trains on the training text with every digit replaced by 'x'",
           "cell-20", r"99%|more alike than they were",
           patches=[Patch("cell-19", DIGITLESS_TRAIN)], skip=SKIP_20_NOTRAIN),
    Mutant("a20_shuffled_text",
           "the contexts digits share: the model trains on the training characters shuffled (no context structure)",
           "cell-20", r"99%|more alike than they were",
           patches=[Patch("cell-19", SHUFFLED_TRAIN)], skip=SKIP_20_NOTRAIN),

    # ---------------- baselines (no change, must SURVIVE: they validate the skip lists; not counted) ----------------
    Mutant("base_pairs", "nothing (baseline for the skip list)", "class-pairs-show", r"NEVER",
           patches=[Patch("class-pairs-show", NOOP)], skip=SKIP_PAIRS),
    Mutant("base_16", "nothing (baseline for the skip list)", "cell-16", r"NEVER",
           patches=[Patch("cell-16", NOOP)], skip=SKIP_16),
    Mutant("base_20", "nothing (baseline for the skip list)", "cell-20", r"NEVER",
           patches=[Patch("cell-20", NOOP)], skip=SKIP_20),
]
