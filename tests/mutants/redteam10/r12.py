"""Red team R: mutants of 12_tang_poems.ipynb."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "12_tang_poems.ipynb"
ANY = r"."
EARLY = ["zipf12", "bytes_run12"]  # plots/bytes: no later cell before the families needs them
TO_FAMILIES = ["zipf12", "bytes_run12"]
TO_CONTEXT = ["zipf12", "bytes_run12", "families_show12"]
TO_FORM = ["zipf12", "bytes_run12", "families_show12", "context_run12", "context_show12"]
TO_SOUND = ["zipf12", "families_show12", "context_run12", "context_show12", "form_show12", "decoders_run12"]
TO_PERIOD = TO_SOUND + ["sound_show12"]

FULL_BUILDER = ('"transformer": lambda: TransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=48,\n'
                '                                                           positional="learned", tie_weights=True)),')

_ALL = [
    # ---- sparsity_triangle
    Mutant("table_bytes_in_entries", "the tables' memory counts entries, not bytes (a factor of 4-8 off): 'MB' are not MB",
           "triangle_show12", ANY, skip=EARLY,
           patches=[Patch("triangle_run12", src_patch("utils.ngram_counts", "NGramTable.nbytes",
                                                      [("t.numel() * t.element_size()", "t.numel()")]))]),
    Mutant("english_unseen_on_training_text", "the English comparison's unseen share is measured on its own training text",
           "triangle_show12", ANY, skip=EARLY,
           edits=[Edit("triangle_run12", '"unseen_english": en.unseen_share(english.val)',
                       '"unseen_english": en.unseen_share(english.train)')]),
    # ---- transformer_beats_ngram
    Mutant("networks_trained_on_val", "every network is trained on the validation poems it is scored on (a leak)",
           "families_show12", ANY, skip=TO_FAMILIES,
           edits=[Edit("train12", "batches = batch_sampler(dataset.train, BATCH", "batches = batch_sampler(dataset.val, BATCH")]),
    Mutant("band_only_without_grad", "the control's band acts only without autograd: it is trained as a full Transformer and only scored banded",
           "families_show12", ANY, skip=TO_FAMILIES,
           patches=[Patch("train12", src_patch("utils.banded", "BandedTransformerLM._run", [(
               "bias = band_bias(T, offset, self.bands[layer], idx.device).to(x.dtype)",
               "bias = band_bias(T, offset, self.bands[layer], idx.device).to(x.dtype); "
               "bias = torch.zeros_like(bias) if torch.is_grad_enabled() else bias")]))]),
    # ---- context_beyond_window
    Mutant("far_swap_random_symbols", "the far symbols are replaced by random symbols (punctuation and boundary moved), not another poem's characters",
           "context_show12", ANY, skip=TO_CONTEXT,
           edits=[Edit("context_run12", "swapped[:, :cut] = other_poems[:, :cut].to(device)",
                       "swapped[:, :cut] = torch.randint(1, V, (swapped.shape[0], cut), generator=torch.Generator().manual_seed(t)).to(device)")]),
    Mutant("transformer_banded_too", "the 'full' Transformer is itself banded to REACH: it cannot read beyond the window",
           "context_show12", ANY, skip=TO_CONTEXT,
           edits=[Edit("train12", FULL_BUILDER,
                       '"transformer": lambda: BandedTransformerLM(TransformerConfig(V, context_length=32, n_layer=2, n_head=4, d_model=48,\n'
                       '                                                           positional="learned", tie_weights=True), reach=REACH),')]),
    # ---- transformer_keeps_form
    Mutant("transformer_without_positions", "the full Transformer has no positions (positional='none'), the cause the prose credits",
           "form_show12", ANY, skip=TO_FORM,
           edits=[Edit("train12", FULL_BUILDER, FULL_BUILDER.replace('positional="learned"', 'positional="none"'))]),
    Mutant("quatrain_ignores_punctuation_order", "the form test accepts any ，/。 at the line ends: ，。，。 is no longer measured",
           "form_show12", ANY, skip=TO_FORM,
           patches=[Patch("sample12", "import re as _re, utils.tang as _t\n"
                                      "_t.QUATRAIN_5 = _re.compile(f'(?:{_t.HANZI}{{5}}[，。]){{4}}')\n")]),
    # ---- rhyme_and_tone
    Mutant("level_ends_of_lines_1_3", "the level-tone measure reads the ends of lines 1 and 3, not the rhyming lines 2 and 4",
           "sound_show12", ANY, skip=TO_SOUND,
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "sound_report", [(
               'level_ends += last_sound(second)[1] == "平" and last_sound(fourth)[1] == "平"',
               'level_ends += last_sound(lines[0])[1] == "平" and last_sound(lines[2])[1] == "平"')]))]),
    Mutant("pairings_one_shuffle", "the random-pair control ignores its seed: one shuffle repeated five times, no spread",
           "sound_show12", ANY, skip=TO_SOUND,
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "random_pair_rhyme", [(
               "random.Random(seed).shuffle(order)", "random.Random(0).shuffle(order)")]))]),
    # ---- rhyme_in_period_groups
    Mutant("level_rhyme_without_rhyme", "level_rhyme no longer asks for a shared group: any line end with a level group counts",
           "pingshui_show12", ANY, skip=TO_PERIOD,
           patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "level_rhyme", [(
               " if group in shared)", ")")]))]),
    Mutant("entering_any_group", "a character counts as entering-tone when any one of its groups is (the caveat's class mixed)",
           "pingshui_show12", ANY, skip=TO_PERIOD,
           patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "is_entering", [(
               "all(group.startswith(ENTERING) for group in groups)", "any(group.startswith(ENTERING) for group in groups)")]))]),
]

_ORDER = ['networks_trained_on_val', 'band_only_without_grad', 'far_swap_random_symbols', 'table_bytes_in_entries', 'quatrain_ignores_punctuation_order', 'level_rhyme_without_rhyme', 'transformer_without_positions', 'level_ends_of_lines_1_3', 'transformer_banded_too', 'english_unseen_on_training_text', 'pairings_one_shuffle', 'entering_any_group']
_EXTRA = []
MUTANTS = sorted([m for m in _ALL if m not in _EXTRA], key=lambda m: _ORDER.index(m.name))
