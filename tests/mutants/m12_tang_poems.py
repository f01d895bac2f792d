"""Mutants of notebook 12: each removes the cause of one show (the large vocabulary, training, positions/form,
the context beyond the window, the poet's rhyme)."""

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
_CONTEXT = ["context_run12", "context_show12"]
_SOUND_CONTEXT = ["zipf12", "families_show12", "form_show12", "decoders_run12", *_CONTEXT]
_LINE4_RHYMES_WITH_LINE2 = (  # the last character of line 4 replaced by line 2's: every quatrain rhymes
    "samples['transformer'] = [p[:23 - 1] + p[10] + p[23] if len(p) == 24 else p for p in samples['transformer']]\n"
)
_TRAINING_LINE4_SHUFFLED = (  # line 4 of every training poem taken from the next poem: the poet's rhyme removed
    "training_poems = [p[:18] + training_poems[(i + 1) % len(training_poems)][18:] for i, p in enumerate(training_poems)]\n"
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
           edits=[Edit(cell="train12", old='steps = STEPS if family.startswith("transformer") else OTHER_STEPS', new="steps = 1")],
           skip=["zipf12"]),
    Mutant(name="shuffled_training_poems", removes="the order of the characters: every training poem shuffled",
           target="families_show12", message=r"should beat the best n-gram on held-out poems",
           patches=[Patch(before="train12", code=_SHUFFLED)],
           edits=[Edit(cell="params12", old="OTHER_STEPS = pick(full=350, fast=100)", new="OTHER_STEPS = 1")],
           skip=["zipf12"]),
    Mutant(name="untrained_transformer", removes="the training: the Transformer that writes the poems is untrained",
           target="form_show12", message=r"keep the quatrain form far more often than the bigram",
           patches=[Patch(before="sample12", code=_UNTRAINED)],
           skip=["zipf12", "triangle_show12", "train12", "families_show12", *_CONTEXT]),
    Mutant(name="no_punctuation_in_training", removes="the form in the training poems: ， and 。 removed from them",
           target="form_show12", message=r"keep the quatrain form far more often than the bigram",
           patches=[Patch(before="train12", code=_NO_PUNCTUATION)],
           edits=[Edit(cell="params12", old="OTHER_STEPS = pick(full=350, fast=100)", new="OTHER_STEPS = 1")],
           skip=["zipf12", "families_show12", *_CONTEXT]),
    Mutant(name="bigram_measured_on_training_poems", removes="the measurement: the bigram's 'samples' are training poems",
           target="form_show12", message=r"far more often than the bigram",
           edits=[Edit(cell="sample12", old='samples = {name: write_poems(model, N_SAMPLES) for name, model in [("bigram", bigram), *models.items()]}',
                       new='samples = {name: write_poems(model, N_SAMPLES) for name, model in [("bigram", bigram), *models.items()]}\n'
                           'samples["bigram"] = [tokenizer.decode(t.tolist()) for t in dataset.train[:N_SAMPLES]]')],
           patches=[Patch(before="sample12", code=_UNTRAINED)],
           skip=["zipf12", "triangle_show12", "train12", "families_show12", *_CONTEXT]),
    Mutant(name="banded_control_untrained", removes="the banded control's training: it takes one optimisation step",
           target="families_show12", message=r"reads only the last 4 characters should still beat",
           edits=[Edit(cell="train12", old='steps = STEPS if family.startswith("transformer") else OTHER_STEPS',
                       new='steps = 1 if family == "transformer_w4" else STEPS if family == "transformer" else OTHER_STEPS')],
           skip=["zipf12"]),
    Mutant(name="banded_control_without_positions", removes="the control's positions: the banded Transformer without them",
           target="form_show12", message=r"should keep the form as often as the full one",
           edits=[Edit(cell="train12", old='positional="learned", tie_weights=True), reach=REACH)',
                       new='positional="none", tie_weights=True), reach=REACH)')],
           skip=["zipf12", "families_show12", *_CONTEXT]),
    Mutant(name="far_characters_from_the_same_poem", removes="the swap: the far characters 'taken from another poem' are the poem's own",
           target="context_show12", message=r"should take something from the characters beyond the window",
           edits=[Edit(cell="context_run12", old="other_poems = val_poems.roll(1, dims=0)", new="other_poems = val_poems.roll(0, dims=0)")],
           skip=["zipf12", "families_show12"]),
    Mutant(name="transformer_replaced_by_the_banded_one", removes="the reach beyond the window: the Transformer measured is the banded control",
           target="context_show12", message=r"should take something from the characters beyond the window",
           patches=[Patch(before="context_run12", code="models['transformer'] = models['transformer_w4']\n")],
           skip=["zipf12", "families_show12"]),
    Mutant(name="swap_inside_the_window_too", removes="the window: the swap also replaces the last characters, which the control reads",
           target="context_show12", message=r"banded Transformer's losses with its own",
           edits=[Edit(cell="context_run12", old="cut = max(t + 1 - REACH, 0)", new="cut = t + 1")],
           skip=["zipf12", "families_show12"]),
    Mutant(name="samples_rhyme_by_copying", removes="the samples' independence: line 4 ends with line 2's last character",
           target="sound_show12", message=r"should rhyme about as often as random pairs",
           patches=[Patch(before="sound_run12", code=_LINE4_RHYMES_WITH_LINE2)], skip=_SOUND_CONTEXT),
    Mutant(name="random_pairs_from_one_poem", removes="the random pairing: each line 2 is paired with its own poem's line 4",
           target="sound_show12", message=r"rhyme far above random pairs|pair the lines at random",
           edits=[Edit(cell="sound_run12", old="pairings = [random_pair_rhyme(training_poems, seed) for seed in range(5)]",
                       new='pairings = [heard["training"]["rhyme"] for seed in range(5)]')], skip=_SOUND_CONTEXT),
    Mutant(name="training_line4_from_another_poem", removes="the poet's rhyme: line 4 of every training poem comes from the next poem",
           target="sound_show12", message=r"rhyme far above random pairs",
           patches=[Patch(before="sound_run12", code=_TRAINING_LINE4_SHUFFLED)], skip=_SOUND_CONTEXT),
    Mutant(name="period_groups_replaced_by_modern", removes="the 平水韵: two line ends 'rhyme' when their modern 十三辙 "
           "classes agree", target="pingshui_show12", message=r"more clearly than modern readings|narrower than the modern classes",
           patches=[Patch(before="pingshui_run12", code="import utils.pingshui as _ps, utils.poem_sound as _snd\n"
                                                         "_ps.rhymes = _snd.rhymes\n")], skip=[*_SOUND_CONTEXT, "sound_show12"]),
    Mutant(name="entering_read_as_departing", removes="the entering tone: the departing-tone (去声) characters are "
           "counted as the entering ones", target="pingshui_show12", message=r"entering-tone characters level|should not share a character",
           patches=[Patch(before="pingshui_run12", code="import utils.pingshui as _ps\n"
                          "_ps.is_entering = lambda c: bool(_ps.groups_of(c)) and all(g.startswith('去声') "
                          "for g in _ps.groups_of(c))\n")], skip=[*_SOUND_CONTEXT, "sound_show12"]),
    Mutant(name="period_table_not_simplified", removes="the simplified forms: the table keeps only its traditional "
           "characters", target="pingshui_show12", message=r"more clearly than modern readings|should cover the poems",
           patches=[Patch(before="pingshui_run12", code="import utils.pingshui as _ps\n_simplify = _ps.to_simplified\n"
                                                         "_ps.to_simplified = lambda text: text if len(text) == 1 else _simplify(text)\n"
                                                         "_ps.rhyme_table.cache_clear()\n")],
           skip=[*_SOUND_CONTEXT, "sound_show12"]),
    Mutant(name="period_samples_made_to_rhyme", removes="the samples' own line 4: its last character copied from line 2",
           target="pingshui_show12", message=r"should rhyme about as often as random pairs",
           patches=[Patch(before="pingshui_run12", code=_LINE4_RHYMES_WITH_LINE2)], skip=[*_SOUND_CONTEXT, "sound_show12"]),
    # the second red team's survivors (2026-12-05), re-created and killed by the band probe and the bigram check
    Mutant(name="families_control_not_banded", removes="the band: the 'banded' control reads the whole poem (reach 32)",
           target="families_show12", message=r"banded control's logits with its own and with another poem's",
           edits=[Edit(cell="train12", old="tie_weights=True), reach=REACH),", new="tie_weights=True), reach=32),")],
           skip=["zipf12", "bytes_run12"]),
    Mutant(name="form_control_not_banded", removes="the band: the 'banded' control of the form show reads the whole poem",
           target="form_show12", message=r"banded control's logits with its own and with another poem's",
           edits=[Edit(cell="train12", old="tie_weights=True), reach=REACH),", new="tie_weights=True), reach=32),")],
           skip=["zipf12", "bytes_run12", "families_show12", *_CONTEXT]),
    Mutant(name="form_baseline_is_five_gram", removes="the bigram baseline: the form show's 'bigram' is the 5-gram",
           target="form_show12", message=r"baseline should be the bigram",
           edits=[Edit(cell="triangle_run12", old="if n == 2:", new="if n == MAX_ORDER:")],
           skip=["zipf12", "bytes_run12", "families_show12", *_CONTEXT]),
]


from tests.mutants.redteam2 import adopted  # noqa: E402

MUTANTS += adopted("12")  # the second red team's killed mutants (slow tier)

from tests.mutants.redteam3.r12 import MUTANTS as _REDTEAM3  # noqa: E402

MUTANTS += _REDTEAM3  # a red team's mutants of the poem-sound shows, 2026-12-06 (slow tier)

from tests.mutants.redteam7 import adopted as adopted7  # noqa: E402

MUTANTS += adopted7("12")  # the fifth red team's mutants (slow tier)

from tests.mutants.redteam8 import adopted as adopted8  # noqa: E402

MUTANTS += adopted8("12")  # the sixth red team's mutants (slow tier)

from tests.mutants.redteam10 import adopted as adopted10  # noqa: E402

MUTANTS += adopted10("12")  # the eighth red team's mutants (slow tier)
