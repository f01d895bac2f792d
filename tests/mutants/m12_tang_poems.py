"""Mutants of notebook 12: each removes the cause of one show (the large vocabulary, training, positions/form)."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "12_tang_poems.ipynb"
_SMALL_ALPHABET = (
    "dataset.train = [torch.where(t == BOUNDARY, t, 1 + t % 40) for t in dataset.train]\n"
    "dataset.val = [torch.where(t == BOUNDARY, t, 1 + t % 40) for t in dataset.val]\n"
)
_UNTRAINED = (
    "torch.manual_seed(SEED)\n"
    "models = {'transformer': TransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=48,\n"
    "                                                         positional='learned', tie_weights=True)).eval()}\n"
)
_NO_PUNCTUATION = (
    "_marks = torch.tensor([tokenizer.stoi['，'], tokenizer.stoi['。']])\n"
    "dataset.train = [t[~torch.isin(t, _marks)] for t in dataset.train]\n"
)
_SHUFFLED = (
    "_g = torch.Generator().manual_seed(1)\n"
    "dataset.train = [t[torch.randperm(t.numel(), generator=_g)] for t in dataset.train]\n"
)

MUTANTS = [
    Mutant(name="small_alphabet", removes="the vocabulary of thousands: the poems folded onto 40 symbols, like English",
           target="triangle_show12", message=r"most held-out n-grams should be unseen",
           patches=[Patch(before="triangle_run12", code=_SMALL_ALPHABET)], skip=["zipf12"]),
    Mutant(name="unseen_measured_on_training", removes="the held-out text: the unseen share measured on the training poems",
           target="triangle_show12", message=r"most held-out n-grams should be unseen",
           edits=[Edit(cell="triangle_run12", old='"unseen": kn.unseen_share(dataset.val)',
                       new='"unseen": kn.unseen_share(dataset.train)')], skip=["zipf12"]),
    Mutant(name="untrained_networks", removes="the training: every network takes one optimisation step",
           target="families_show12", message=r"should beat the best n-gram on held-out poems",
           edits=[Edit(cell="train12", old='steps = STEPS if family == "transformer" else OTHER_STEPS', new="steps = 1")],
           skip=["zipf12"]),
    Mutant(name="shuffled_training_poems", removes="the order of the characters: every training poem shuffled",
           target="families_show12", message=r"should beat the best n-gram on held-out poems",
           patches=[Patch(before="train12", code=_SHUFFLED)],
           edits=[Edit(cell="params12", old="OTHER_STEPS = pick(full=350, fast=100)", new="OTHER_STEPS = 1")],
           skip=["zipf12"]),
    Mutant(name="untrained_transformer", removes="the training: the Transformer that writes the poems is untrained",
           target="form_show12", message=r"keep the quatrain form far more often than the bigram",
           patches=[Patch(before="sample12", code=_UNTRAINED)],
           skip=["zipf12", "triangle_show12", "train12", "families_show12"]),
    Mutant(name="no_punctuation_in_training", removes="the form in the training poems: ， and 。 removed from them",
           target="form_show12", message=r"keep the quatrain form far more often than the bigram",
           patches=[Patch(before="train12", code=_NO_PUNCTUATION)],
           edits=[Edit(cell="params12", old="OTHER_STEPS = pick(full=350, fast=100)", new="OTHER_STEPS = 1")],
           skip=["zipf12", "families_show12"]),
    Mutant(name="bigram_measured_on_training_poems", removes="the measurement: the bigram's 'samples' are training poems",
           target="form_show12", message=r"far more often than the bigram",
           edits=[Edit(cell="sample12", old='samples = {name: write_poems(model, N_SAMPLES) for name, model in [("bigram", bigram), *models.items()]}',
                       new='samples = {name: write_poems(model, N_SAMPLES) for name, model in [("bigram", bigram), *models.items()]}\n'
                           'samples["bigram"] = [tokenizer.decode(t.tolist()) for t in dataset.train[:N_SAMPLES]]')],
           patches=[Patch(before="sample12", code=_UNTRAINED)],
           skip=["zipf12", "triangle_show12", "train12", "families_show12"]),
]
