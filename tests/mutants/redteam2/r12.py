"""Second red team's mutants of 12_tang_poems.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 14 of 19 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "12_tang_poems.ipynb"

_FOR_TRIANGLE = ["zipf12", "bytes_run12"]
_FOR_FAMILIES = ["zipf12", "bytes_run12"]
_FOR_CONTEXT = ["zipf12", "bytes_run12", "families_show12"]
_FOR_FORM = ["zipf12", "bytes_run12", "families_show12", "context_run12", "context_show12"]
_FOR_SOUND = ["zipf12", "families_show12", "context_run12", "context_show12", "form_show12", "decoders_run12"]

_T_OLD = '"transformer": lambda: TransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=48,\n                                                           positional="learned", tie_weights=True)),'
_W_OLD = '"transformer_w4": lambda: BandedTransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=48,\n                                                                    positional="learned", tie_weights=True), reach=REACH),'


def _t(**kw):
    extra = "".join(f", {k}={v}" for k, v in kw.items())
    return _T_OLD.replace('tie_weights=True)', f'tie_weights=True{extra})')


def _w(**kw):
    extra = "".join(f", {k}={v}" for k, v in kw.items())
    return _W_OLD.replace('tie_weights=True)', f'tie_weights=True{extra})')


MUTANTS = [
    # ---- triangle_show12: sparsity_triangle ----
    Mutant(
        "unseen_on_training", "the unseen share is measured on the training poems (the tables' own text), not held-out poems",
        "triangle_show12", ".",
        edits=[Edit("triangle_run12", '"unseen": kn.unseen_share(dataset.val)', '"unseen": kn.unseen_share(dataset.train)')],
        skip=_FOR_TRIANGLE,
    ),
    Mutant(
        "small_vocabulary", "the cause, a vocabulary of thousands, is removed: the poems' characters are folded into 96 symbols",
        "triangle_show12", ".",
        patches=[Patch("triangle_run12",
                       "import types as _types\n"
                       "_fold = lambda t: torch.where(t == BOUNDARY, t, (t % 96) + 1 if BOUNDARY == 0 else t % 96)\n"
                       "dataset = _types.SimpleNamespace(train=[_fold(t) for t in dataset.train], val=[_fold(t) for t in dataset.val])\n"
                       "V = 97 if BOUNDARY == 0 else max(97, BOUNDARY + 1)\n"
                       "print('patched: boundary', BOUNDARY, 'symbols', len(set(torch.cat(dataset.train).tolist())))\n")],
        skip=_FOR_TRIANGLE,
    ),
    Mutant(
        "perplexity_on_training", "the perplexity is measured on the training poems: the higher orders are scored on what they memorised",
        "triangle_show12", ".",
        edits=[Edit("triangle_run12", '"perplexity": kn.perplexity(dataset.val)', '"perplexity": kn.perplexity(dataset.train)')],
        skip=_FOR_TRIANGLE,
    ),
    # ---- families_show12: transformer_beats_ngram ----
    Mutant(
        "future_leak_transformer", "the Transformer is not causal (causal=False): it sees the character it predicts",
        "families_show12", ".",
        edits=[Edit("train12", _T_OLD, _t(causal=False))],
        skip=_FOR_FAMILIES,
    ),
    Mutant(
        "weak_ngram_baseline", "the 'best' n-gram is chosen with max instead of min: the baseline is the worst order",
        "families_show12", ".",
        edits=[Edit("train12", 'best_n = min(orders, key=lambda n: by_n[n]["perplexity"])',
                    'best_n = max(orders, key=lambda n: by_n[n]["perplexity"])')],
        skip=_FOR_FAMILIES,
    ),
    Mutant(
        "no_positions", "both Transformers lose their positions (positional='none'), half the cause the prose credits for the lead",
        "families_show12", ".",
        edits=[Edit("train12", _T_OLD, _t().replace('positional="learned"', 'positional="none"')),
               Edit("train12", _W_OLD, _w().replace('positional="learned"', 'positional="none"'))],
        skip=_FOR_FAMILIES,
    ),
    Mutant(
        "families_control_not_banded", "the banded control reads the whole poem (reach=32): its 'same reach as the 5-gram' comparison is void",
        "families_show12", ".",
        edits=[Edit("train12", "tie_weights=True), reach=REACH),", "tie_weights=True), reach=32),")],
        skip=_FOR_FAMILIES,
    ),
    # ---- context_show12: context_beyond_window ----
    Mutant(
        "control_not_banded", "the banded control reads the whole poem (reach=32)",
        "context_show12", ".",
        edits=[Edit("train12", "tie_weights=True), reach=REACH),", "tie_weights=True), reach=32),")],
        skip=_FOR_CONTEXT,
    ),
    Mutant(
        "transformer_is_banded", "the 'full' Transformer is built banded (copy-paste of the control): it cannot see beyond the window",
        "context_show12", ".",
        edits=[Edit("train12", '"transformer": lambda: TransformerLM(', '"transformer": lambda: BandedTransformerLM(')],
        skip=_FOR_CONTEXT,
    ),
    Mutant(
        "swap_cut_off_by_one", "the swap reaches one character into the window (cut off by one): it no longer removes only the far context",
        "context_show12", ".",
        edits=[Edit("context_run12", "cut = max(t + 1 - REACH, 0)", "cut = max(t + 2 - REACH, 0)")],
        skip=_FOR_CONTEXT,
    ),
    Mutant(
        "untrained_transformer", "the full Transformer is never trained (steps=0 for it)",
        "context_show12", ".",
        edits=[Edit("train12", 'steps = STEPS if family.startswith("transformer") else OTHER_STEPS',
                    'steps = (1 if family == "transformer" else STEPS) if family.startswith("transformer") else OTHER_STEPS')],
        skip=_FOR_CONTEXT,
    ),
    # ---- form_show12: transformer_keeps_form ----
    Mutant(
        "no_positions_form", "both Transformers lose their positions (positional='none'), the cause the prose gives for the form",
        "form_show12", ".",
        edits=[Edit("train12", _T_OLD, _t().replace('positional="learned"', 'positional="none"')),
               Edit("train12", _W_OLD, _w().replace('positional="learned"', 'positional="none"'))],
        skip=_FOR_FORM,
    ),
    Mutant(
        "full_no_positions", "only the full Transformer loses its positions: 'a Transformer that knows positions keeps the form'",
        "form_show12", ".",
        edits=[Edit("train12", _T_OLD, _t().replace('positional="learned"', 'positional="none"'))],
        skip=_FOR_FORM,
    ),
    Mutant(
        "baseline_is_five_gram", "the 'bigram' baseline is the 5-gram, whose context of 4 characters plus memorised poems can place punctuation",
        "form_show12", ".",
        edits=[Edit("triangle_run12", "if n == 2:", "if n == MAX_ORDER:")],
        skip=_FOR_FORM,
    ),
    Mutant(
        "form_control_not_banded", "the banded control reads the whole poem (reach=32): 'it does not need the whole poem' is then untested",
        "form_show12", ".",
        edits=[Edit("train12", "tie_weights=True), reach=REACH),", "tie_weights=True), reach=32),")],
        skip=_FOR_FORM,
    ),
    # ---- sound_show12: rhyme_and_tone ----
    Mutant(
        "random_pairs_same_poem", "the random-pairing control pairs each poem with itself (the cycle is off by one): the poet is not removed",
        "sound_show12", ".",
        patches=[Patch("sound_run12",
                       "import utils.poem_sound as _ps\n"
                       "def _same_poem(poems, seed=0, rhyme=None):\n"
                       "    rhyme = rhyme or _ps.rhymes\n"
                       "    kept = [_ps.line_ends(p) for p in poems if _ps.is_quatrain(p)]\n"
                       "    return sum(rhyme(k[1], k[3]) for k in kept) / len(kept)\n"
                       "_ps.random_pair_rhyme = _same_poem\n"
                       "print('patched random_pair_rhyme')\n")],
        skip=_FOR_SOUND,
    ),
    Mutant(
        "tone_control_at_line_end", "the tone control reads the line ends instead of the first characters (position 0 -> -1)",
        "sound_show12", ".",
        patches=[Patch("sound_run12",
                       "import utils.poem_sound as _ps\n"
                       "_ls = _ps.last_sound\n"
                       "_ps.last_sound = lambda line, position=-1: _ls(line, -1)\n"
                       "print('patched last_sound')\n")],
        skip=_FOR_SOUND,
    ),
    Mutant(
        "lines_1_and_3", "lines are indexed off by one: rhyme and tone are read on lines 1 and 3, which a quatrain does not rhyme",
        "sound_show12", ".",
        patches=[Patch("sound_run12",
                       "import utils.poem_sound as _ps\n"
                       "_le = _ps.line_ends\n"
                       "_ps.line_ends = lambda poem: (lambda l: [l[1], l[0], l[3], l[2]])(_le(poem))\n"
                       "print('patched line_ends')\n")],
        skip=_FOR_SOUND,
    ),
    Mutant(
        "samples_are_training_poems", "the Transformer's 'samples' scored are training poems (a copy-paste of the training row)",
        "sound_show12", ".",
        edits=[Edit("sound_run12", "heard.update({name: sound_report(poems) for name, poems in samples.items()})",
                    "heard.update({name: sound_report(training_poems[:N_SAMPLES] if name == 'transformer' else poems) for name, poems in samples.items()})")],
        skip=_FOR_SOUND,
    ),
]


import dataclasses as _dataclasses  # noqa: E402

# future_leak_transformer and weak_ngram_baseline survived the team's run; families_show12 was mended after it
# (2026-12-05: a causality check and the best-of-grid check) and now kills them
_KILLED = ['future_leak_transformer', 'weak_ngram_baseline', 'control_not_banded', 'full_no_positions', 'lines_1_and_3', 'no_positions', 'no_positions_form', 'perplexity_on_training', 'random_pairs_same_poem', 'samples_are_training_poems', 'small_vocabulary', 'swap_cut_off_by_one', 'tone_control_at_line_end', 'transformer_is_banded', 'unseen_on_training', 'untrained_transformer']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
