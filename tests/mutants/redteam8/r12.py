"""Red-team mutants of notebook 12 (Tang poems): one cause removed per mutant, plus one no-change base_ per show."""

from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "12_tang_poems.ipynb"

NOOP = "pass  # NEVER: a no-change baseline\n"

# skip lists: cells each target does not depend on (verified by the base_ mutants)
SKIP_TRI = ["zipf12", "bytes_run12"]
SKIP_FAM = ["zipf12", "bytes_run12"]  # triangle_show12 defines by_n, which train12 uses
SKIP_CTX = ["zipf12", "bytes_run12", "families_show12"]
SKIP_FORM = ["zipf12", "bytes_run12", "families_show12", "context_run12", "context_show12"]
SKIP_SOUND = ["zipf12", "families_show12", "context_run12", "context_show12", "form_show12", "decoders_run12"]
SKIP_PS = SKIP_SOUND + ["sound_show12"]

# a config builder that drops the positions (used by two form mutants)
NOPOS = (
    "def _nopos(*args, **kwargs):\n"
    "    kwargs['positional'] = 'none'\n"
    "    return TransformerConfig(*args, **kwargs)\n"
)

MUTANTS = [
    # ---------------------------------------------------------------- triangle_show12 (sparsity_triangle)
    Mutant("base_triangle", "nothing (baseline: must survive)", "triangle_show12", r"NEVER",
           patches=[Patch("triangle_run12", NOOP)], skip=SKIP_TRI),
    Mutant("tri_english_unseen_on_train",
           "the English comparison is measured on its own training text (in-sample), so its unseen share is 0 by "
           "construction and the 'far sparser than English' comparison no longer compares held-out text",
           "triangle_show12", r"sparser than English|held-out text",
           edits=[Edit("triangle_run12", '"unseen_english": en.unseen_share(english.val)',
                       '"unseen_english": en.unseen_share(english.train)')], skip=SKIP_TRI),
    Mutant("tri_addk_not_kneser_ney",
           "the n-grams are add-one smoothed instead of Kneser-Ney: no back-off to shorter contexts, the cause the "
           "prose credits for the flat perplexity beyond the bigram",
           "triangle_show12", r"beyond the bigram|too sparse",
           edits=[Edit("triangle_run12", 'kn = NGramLM.fit(dataset.train, V, n=n, smoothing="kneser_ney", boundary_id=BOUNDARY)',
                       'kn = NGramLM.fit(dataset.train, V, n=n, smoothing="add_k", boundary_id=BOUNDARY)')],
           skip=SKIP_TRI),
    Mutant("tri_perplexity_on_train",
           "the perplexity is measured on the training poems, not held out: no sparsity penalty for long contexts",
           "triangle_show12", r"beyond the bigram|too sparse",
           edits=[Edit("triangle_run12", '"perplexity": kn.perplexity(dataset.val)',
                       '"perplexity": kn.perplexity(dataset.train)')], skip=SKIP_TRI),
    # ---------------------------------------------------------------- families_show12 (transformer_beats_ngram)
    Mutant("base_families", "nothing (baseline: must survive)", "families_show12", r"NEVER",
           patches=[Patch("train12", NOOP)], skip=SKIP_FAM),
    Mutant("fam_networks_scored_on_train",
           "the networks are scored on the training poems while the n-grams are scored on the validation poems: "
           "not the same held-out yardstick",
           "families_show12", r"beat the best n-gram|still beat|compared on the held-out poems",
           edits=[Edit("train12", 'evaluate_split(model, dataset, "val").perplexity',
                       'evaluate_split(model, dataset, "train").perplexity')], skip=SKIP_FAM),
    Mutant("fam_ngram_baseline_half_data",
           "the n-gram baseline is weakened: counted on half the training poems, while the networks train on all",
           "families_show12", r"beat the best n-gram|still beat",
           edits=[Edit("triangle_run12",
                       'kn = NGramLM.fit(dataset.train, V, n=n,',
                       'kn = NGramLM.fit(dataset.train[: len(dataset.train) // 2], V, n=n,')], skip=SKIP_FAM),
    Mutant("fam_band_reach_8",
           "the banded control reads the last 8 characters, beyond the 5-gram it is compared with (REACH = 8): "
           "it no longer isolates embeddings and positions from the longer context",
           "families_show12", r"still beat|reach|REACH|read exactly",
           edits=[Edit("params12", "REACH = 4", "REACH = 8")], skip=SKIP_FAM),
    Mutant("fam_band_double_budget",
           "the banded control gets twice the Transformer's training steps, not the same budget",
           "families_show12", r"still beat|budget|steps",
           edits=[Edit("train12", 'steps = STEPS if family.startswith("transformer") else OTHER_STEPS',
                       'steps = (2 * STEPS if family == "transformer_w4" else STEPS) if family.startswith("transformer") '
                       'else OTHER_STEPS')], skip=SKIP_FAM),
    # ---------------------------------------------------------------- context_show12 (context_beyond_window)
    Mutant("base_context", "nothing (baseline: must survive)", "context_show12", r"NEVER",
           patches=[Patch("context_run12", NOOP)], skip=SKIP_CTX),
    Mutant("ctx_full_transformer_banded",
           "the 'full' Transformer is itself banded to the last 4 characters: nothing beyond the window to read",
           "context_show12", r"beyond the window",
           edits=[Edit("train12", '"transformer": lambda: TransformerLM(', '"transformer": lambda: BandedTransformerLM(')],
           skip=SKIP_CTX),
    Mutant("ctx_control_sees_beyond_window",
           "the banded control sees 5 characters back, one beyond the window, so it is no control",
           "context_show12", r"banded Transformer|band",
           edits=[Edit("train12", "reach=REACH),", "reach=REACH + 1),")], skip=SKIP_CTX),
    Mutant("ctx_swap_own_shifted",
           "the far characters are the poem's own characters shifted by one place, not another poem's at the same "
           "places: the punctuation moves, so the rise no longer isolates which characters came earlier",
           "context_show12", r"beyond the window|nothing is swapped|banded|from another poem",
           edits=[Edit("context_run12", "other_poems = val_poems.roll(1, dims=0)",
                       "other_poems = val_poems.roll(1, dims=1)")], skip=SKIP_CTX),
    # ---------------------------------------------------------------- form_show12 (transformer_keeps_form)
    Mutant("base_form", "nothing (baseline: must survive)", "form_show12", r"NEVER",
           patches=[Patch("sample12", NOOP)], skip=SKIP_FORM),
    Mutant("form_transformer_no_positions",
           "the Transformer has no positional embedding: it cannot know where in the poem it is",
           "form_show12", r"keep the quatrain form|as often as the full",
           edits=[Edit("train12", '"transformer": lambda: TransformerLM(TransformerConfig(',
                       '"transformer": lambda: TransformerLM(_nopos(')],
           patches=[Patch("train12", NOPOS)], skip=SKIP_FORM),
    Mutant("form_banded_no_positions",
           "the banded control loses its learned positions (it sees 4 characters and no position)",
           "form_show12", r"as often as the full|banded",
           edits=[Edit("train12", '"transformer_w4": lambda: BandedTransformerLM(TransformerConfig(',
                       '"transformer_w4": lambda: BandedTransformerLM(_nopos(')],
           patches=[Patch("train12", NOPOS)], skip=SKIP_FORM),
    Mutant("form_measure_ignores_line_lengths",
           "the form measure no longer counts the five characters of each line (four lines and ，。，。 in order "
           "suffice): it stops measuring the counting the prose credits to positions",
           "form_show12", r"quatrain form|bigram|as often",
           patches=[Patch("sample12", src_patch("utils.tang", "form_report",
                                                 [("both += is_quatrain(poem)", "both += p_ok")], rebind="form_report"))],
           skip=SKIP_FORM),
    # ---------------------------------------------------------------- sound_show12 (rhyme_and_tone)
    Mutant("base_sound", "nothing (baseline: must survive)", "sound_show12", r"NEVER",
           patches=[Patch("sound_run12", NOOP)], skip=SKIP_SOUND),
    Mutant("snd_rhyme_lines_1_3",
           "rhyme is measured on lines 1 and 3 instead of lines 2 and 4 (the lines the form makes rhyme)",
           "sound_show12", r"rhyme far above random|rhyme",
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "sound_report",
                                                    [("rhyme += rhymes(second, fourth)", "rhyme += rhymes(lines[0], lines[2])")]))],
           skip=SKIP_SOUND),
    Mutant("snd_control_same_poem_20pct",
           "the random-pair control is not all from other poems: one pair in five is line 2 and line 4 of the same "
           "poem (the poet not removed)",
           "sound_show12", r"random|rhyme",
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "random_pair_rhyme", [(
               "partner = {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}",
               "partner = {order[i]: (order[i] if i % 5 == 0 else order[(i + 1) % len(order)]) for i in range(len(order))}")]))],
           skip=SKIP_SOUND),
    Mutant("snd_control_same_poem_10pct",
           "the random-pair control is not all from other poems: one pair in ten is line 2 and line 4 of the same "
           "poem (the poet not removed)",
           "sound_show12", r"random|rhyme|chance",
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "random_pair_rhyme", [(
               "partner = {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}",
               "partner = {order[i]: (order[i] if i % 10 == 0 else order[(i + 1) % len(order)]) for i in range(len(order))}")]))],
           skip=SKIP_SOUND),
    Mutant("snd_tone3_read_level",
           "tones read wrongly: Mandarin tone 3 counted level (平) with tones 1 and 2",
           "sound_show12", r"level|free place",
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "last_sound", [(
               '"3": "仄"', '"3": "平"')]))],
           skip=SKIP_SOUND),
    Mutant("snd_control_second_character",
           "the tone control is the second character of lines 2 and 4, a place the form constrains, not a free one",
           "sound_show12", r"free place|level",
           edits=[Edit("sound_run12", "last_sound(lines[k], 0)[1]", "last_sound(lines[k], 1)[1]")],
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "sound_report", [(
               'level_first += last_sound(second, 0)[1] == "平" and last_sound(fourth, 0)[1] == "平"',
               'level_first += last_sound(second, 1)[1] == "平" and last_sound(fourth, 1)[1] == "平"')]))],
           skip=SKIP_SOUND),
    # ---------------------------------------------------------------- pingshui_show12 (rhyme_in_period_groups)
    Mutant("base_pingshui", "nothing (baseline: must survive)", "pingshui_show12", r"NEVER",
           patches=[Patch("pingshui_run12", NOOP)], skip=SKIP_PS),
    Mutant("ps_random_pairs_modern",
           "the period control pairs lines at random but judges them with the modern 十三辙 reading, not the 平水韵 groups",
           "pingshui_show12", r"narrower|random|period",
           edits=[Edit("pingshui_run12", "random_pair_rhyme(training_poems, seed, rhyme=pingshui.rhymes)",
                       "random_pair_rhyme(training_poems, seed)")], skip=SKIP_PS),
    Mutant("ps_level_group_by_mandarin",
           "whether a period rhyme is level is read from the Mandarin tone of line 2's last character, not from the "
           "tone class of the shared 平水韵 group (the modern-reading caveat the section claims to remove)",
           "pingshui_show12", r"level group|level_rhyme",
           patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "level_rhyme", [(
               'return any(tone == "平" for tone, group in rhyme_table().get(line_a[-1], ()) if group in shared)',
               'return bool(shared) and __import__("utils.poem_sound", fromlist=["last_sound"]).last_sound(line_a)[1] == "平"')]))],
           skip=SKIP_PS),
    Mutant("ps_table_traditional_only",
           "the 平水韵 table is entered only under its traditional characters: the simplified poems are read against a "
           "table that lacks their forms",
           "pingshui_show12", r"cover",
           patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "rhyme_table", [(
               "for form in {char, to_simplified(char)}:", "for form in {char}:")]))],
           skip=SKIP_PS),
    Mutant("ps_entering_any_group",
           "the entering-tone class takes every character with any 入声 group (mixed characters included), so the "
           "class is no longer the characters a Tang poet read oblique",
           "pingshui_show12", r"entering|level",
           patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "is_entering", [(
               "all(group.startswith(ENTERING) for group in groups)", "any(group.startswith(ENTERING) for group in groups)")]))],
           skip=SKIP_PS),
    Mutant("ps_tone3_read_level",
           "tones read wrongly: Mandarin tone 3 counted level (平), so the Mandarin reading of the classes is wrong",
           "pingshui_show12", r"level",
           patches=[Patch("sound_run12", src_patch("utils.poem_sound", "last_sound", [(
               '"3": "仄"', '"3": "平"')]))],
           skip=SKIP_PS),
]
