"""Mutants of notebook 01: each removes the cause of one show."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "01_autoregression.ipynb"

PARAMETERS, RANDOM_TABLE, ENUMERATE, BOUNDARY, BY_HAND = "edb5475c", "145f2f49", "6e5c75a8", "boundary", "eadd7dae"
UNIFORM, UNIGRAM, LOOP, TRAIN = "9157a361", "f4f43990", "loop", "fa7f419a"
CURVES, SAMPLES, SCRAMBLED = "57f66c82", "7f424a35", "714c9ec3"

NOT_UNIFORM = Patch(before=UNIFORM, code="""
import torch as _torch
_Uniform = UniformLM


class UniformLM(_Uniform):
    def forward(self, idx):
        logits = super().forward(idx)  # (B, T, V)
        return logits + _torch.randn(logits.shape[-1], generator=_torch.Generator().manual_seed(0))  # no longer uniform
""")

READS_NEXT_TOKEN = Patch(before=TRAIN, code="""
import torch as _torch
_BigramTableLM = BigramTableLM


class BigramTableLM(_BigramTableLM):
    def forward(self, idx):
        return super().forward(_torch.roll(idx, -1, dims=1))  # position t reads x[t+1], the token it predicts
""")

MUTANTS = [
    Mutant(name="boundary_not_predicted", removes="the boundary prediction: a text of n symbols ends without p(. | last)",
           target=BOUNDARY, message=r"must agree|share one unit",
           edits=[Edit(cell=BOUNDARY, old="inside, start, stop = P[1:, 1:], P[0, 1:], P[1:, 0]",
                       new="inside, start, stop = P[1:, 1:], P[0, 1:], P[1:, 1:].sum(-1)")],
           skip=[RANDOM_TABLE, ENUMERATE]),
    Mutant(name="trap_leads_to_boundary", removes="the trap of the control: 'b' keeps its way to the boundary",
           target=BOUNDARY, message=r"never ends",
           edits=[Edit(cell=BOUNDARY, old="trap[2] = torch.tensor([0.0, 0.0, 1.0])", new="trap[2] = P[2]")],
           skip=[RANDOM_TABLE, ENUMERATE]),
    Mutant(name="uniform_not_uniform", removes="the uniformity: the 'uniform' model gets random fixed logits",
           target=UNIFORM, message=r"perplexity is the vocabulary size", patches=[NOT_UNIFORM],
           skip=[ENUMERATE, BY_HAND]),
    Mutant(name="loop_takes_no_step", removes="the optimiser step of the written-out loop: the table stays uniform",
           target=LOOP, message=r"converge to the count bigram|lower the loss by its own steps",
           edits=[Edit(cell=LOOP, old="    optimizer.step()  # update the table", new="    pass  # no update")],
           skip=[RANDOM_TABLE, ENUMERATE, BY_HAND, UNIFORM, UNIGRAM]),
    Mutant(name="loop_targets_not_shifted", removes="the shift of the targets: the loop learns to predict the input itself",
           target=LOOP, message=r"converge to the count bigram|lower the loss by its own steps",
           edits=[Edit(cell=LOOP, old="F.cross_entropy(logits.reshape(-1, V), y_batch.reshape(-1))",
                       new="F.cross_entropy(logits.reshape(-1, V), x_batch.reshape(-1))")],
           skip=[RANDOM_TABLE, ENUMERATE, BY_HAND, UNIFORM, UNIGRAM]),
    Mutant(name="bigram_reads_next_token", removes="causality: the bigram's position t reads x[t+1], the token it predicts",
           target=CURVES, message=r"reads the future|must see more than the past token",
           patches=[READS_NEXT_TOKEN], skip=[BOUNDARY, ENUMERATE, BY_HAND, LOOP]),
    Mutant(name="table_starts_random", removes="the zero (uniform) start of the trained table",
           target=CURVES, message=r"loss must start at ln V",
           edits=[Edit(cell=TRAIN, old="bigram = BigramTableLM(BaselineConfig(V)).to(device)\n",
                       new="bigram = BigramTableLM(BaselineConfig(V)).to(device)\n"
                           "torch.nn.init.normal_(bigram.logits.weight, std=2.0)\n")],
           skip=[ENUMERATE, BY_HAND, LOOP]),
    Mutant(name="bigram_untrained", removes="the training of the bigram: one step only",
           target=CURVES, message=r"0.65-0.85 nats off the unigram",
           edits=[Edit(cell=PARAMETERS, old="TRAIN_STEPS = pick(full=1500, fast=300)", new="TRAIN_STEPS = 1")],
           skip=[ENUMERATE, BY_HAND, LOOP]),
    Mutant(name="scored_without_context", removes="the context: the texts are scored by the unigram model",
           target=SCRAMBLED, message=r"more surprising than the real text|less surprising to the bigram",
           edits=[Edit(cell=SCRAMBLED, old="bigram_gaps, unigram_gaps = scramble_gaps(bigram), scramble_gaps(unigram)",
                       new="bigram_gaps, unigram_gaps = scramble_gaps(unigram), scramble_gaps(unigram)")],
           skip=[ENUMERATE, BY_HAND, LOOP, SAMPLES]),
    Mutant(name="shuffles_not_shuffled", removes="the scrambling: the 'shuffles' keep the letters in their order",
           target=SCRAMBLED, message=r"more surprising than the real text|less surprising to the bigram",
           edits=[Edit(cell=SCRAMBLED, old="for i in torch.randperm(WIDTH, generator=window_generator)",
                       new="for i in range(WIDTH)")],
           skip=[BOUNDARY, ENUMERATE, BY_HAND, LOOP, SAMPLES]),
    Mutant(name="loop_learning_rate_too_small", removes="most of the training: a learning rate 100 times smaller",
           target=LOOP, message=r"within 0.1 nats",
           edits=[Edit(cell=LOOP, old="lr=0.3, weight_decay=0.0", new="lr=0.003, weight_decay=0.0")],
           skip=[RANDOM_TABLE, ENUMERATE, BOUNDARY, BY_HAND, UNIFORM, UNIGRAM]),
    # Survivors of the second red team (2026-12-05), re-created here and killed after the shows were mended:
    Mutant(name="bigram_trained_on_validation_text", removes="held-out evaluation: the bigram is trained on the text it is scored on",
           target=CURVES, message=r"held-out cost of the training text's count bigram",
           edits=[Edit(cell=TRAIN, old="train_batches = batch_sampler(train_text,", new="train_batches = batch_sampler(val_text,")],
           skip=[ENUMERATE, BOUNDARY, BY_HAND, LOOP]),
    Mutant(name="evaluator_at_temperature", removes="the model's own distribution: the evaluator scores softmax(logits / 1.5)",
           target=UNIFORM, message=r"score the model's own distribution",
           patches=[Patch(before=UNIFORM, code="import utils.evaluation as _ev\n_orig = _ev.summed_nll\n"
                                               "_ev.summed_nll = lambda logits, targets: _orig(logits / 1.5, targets)\n")],
           skip=[ENUMERATE, BOUNDARY, BY_HAND]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("01")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam5 import adopted as adopted5  # noqa: E402

MUTANTS += adopted5("01")  # the third red team's mutants, its survivors mended since (slow tier)

from tests.mutants.redteam6 import adopted as adopted6  # noqa: E402

MUTANTS += adopted6("01")  # the fourth red team's mutants (slow tier)
