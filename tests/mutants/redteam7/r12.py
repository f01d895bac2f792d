"""Red team D: mutants of notebook 12 (Tang poems). Own mutants, written without reading tests/mutants."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "12_tang_poems.ipynb"

# skip lists: cells the target does not depend on
SKIP_TRI = ["zipf12", "bytes_run12"]
SKIP_FAM = ["zipf12", "bytes_run12"]
SKIP_CTX = ["zipf12", "bytes_run12", "families_show12"]
SKIP_FORM = ["zipf12", "bytes_run12", "families_show12", "context_run12", "context_show12"]
SKIP_SOUND = ["zipf12", "families_show12", "context_run12", "context_show12", "form_show12", "decoders_run12"]
SKIP_PS = SKIP_SOUND + ["sound_show12"]

TRANSFORMER_POS = 'positional="learned", tie_weights=True)),\n    "transformer_w4"'
BANDED_REACH = "tie_weights=True), reach=REACH),"

MUTANTS = [
    # ---------------- sound_show12 (rhyme_and_tone, modern readings) ----------------
    Mutant(
        name="snd_rhyme_lines_2_and_3",
        removes="the rhyme measure pairs line 2 with line 3 (not line 4): the place where the poets rhyme is no longer measured",
        target="sound_show12", message=r"far above random pairs",
        patches=[Patch("sound_run12", src_patch("utils.poem_sound", "sound_report",
                                                [("second, fourth = lines[1], lines[3]", "second, fourth = lines[1], lines[2]")]))],
        skip=SKIP_SOUND),
    Mutant(
        name="snd_rhyme_compares_tone",
        removes="rhymes() compares the tones of the line ends (index 1 of last_sound) instead of their rhyme classes: "
                "nearly every pair of level ends 'rhymes'",
        target="sound_show12", message=r"far above random pairs",
        patches=[Patch("sound_run12", src_patch("utils.poem_sound", "rhymes",
                                                [("last_sound(line_a)[0], last_sound(line_b)[0]",
                                                  "last_sound(line_a)[1], last_sound(line_b)[1]")]))],
        skip=SKIP_SOUND),
    Mutant(
        name="snd_control_same_poem",
        removes="the random-pair control pairs line 2 with line 4 of the same poem (the +1 of the cycle dropped): the poet is not removed",
        target="sound_show12", message=r"pair the lines at random|far above random pairs",
        patches=[Patch("sound_run12", src_patch("utils.poem_sound", "random_pair_rhyme",
                                                [("order[(i + 1) % len(order)]", "order[i % len(order)]")]))],
        skip=SKIP_SOUND),
    Mutant(
        name="snd_tone2_read_oblique",
        removes="the tone table misread: only Mandarin tone 1 counted level (tone 2, 阳平, read as oblique)",
        target="sound_show12", message=r"line ends should be level|free place",
        patches=[Patch("sound_run12", src_patch("utils.poem_sound", "last_sound",
                                                [('{"1": "平", "2": "平", "3": "仄", "4": "仄"}',
                                                  '{"1": "平", "2": "仄", "3": "仄", "4": "仄"}')]))],
        skip=SKIP_SOUND),
    Mutant(
        name="snd_transformer_no_positions",
        removes="the Transformer loses its learned positions (positional='none'): the prose says the level line ends of the "
                "samples are a property of the place, which the learned positions give",
        target="sound_show12", message=r"samples' line ends should be level",
        edits=[Edit("train12", TRANSFORMER_POS, TRANSFORMER_POS.replace('"learned"', '"none"'))],
        skip=SKIP_SOUND),
    # ---------------- pingshui_show12 (rhyme in the period's groups) ----------------
    Mutant(
        name="ps_rhyme_first_chars",
        removes="pingshui.rhymes compares the first characters of the lines, not the line ends",
        target="pingshui_show12", message=r"level group|more clearly",
        patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "rhymes",
                                                   [("groups_of(line_a[-1]) & groups_of(line_b[-1])",
                                                     "groups_of(line_a[0]) & groups_of(line_b[0])")]))],
        skip=SKIP_PS),
    Mutant(
        name="ps_groups_are_tone_parts",
        removes="the table misread: each character gets the part of the rhyme book (上平声部, 入声部, ...) instead of its "
                "group, so the 106 narrow groups become 5 wide classes",
        target="pingshui_show12", message=r"narrower",
        patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "rhyme_table", [
            ("for part_groups in parts.values():", "for part, part_groups in parts.items():"),
            ("entry = (TONE_CLASS[tone_key], to_simplified(group))", "entry = (TONE_CLASS[tone_key], to_simplified(part))")]))],
        skip=SKIP_PS),
    Mutant(
        name="ps_control_modern_rhyme",
        removes="the period's random-pair control forgets rhyme=pingshui.rhymes: it is judged by the modern classes, a "
                "control that differs in more than the pairing",
        target="pingshui_show12", message=r"narrower",
        edits=[Edit("pingshui_run12", "random_pair_rhyme(training_poems, seed, rhyme=pingshui.rhymes)",
                    "random_pair_rhyme(training_poems, seed)")],
        skip=SKIP_PS),
    Mutant(
        name="ps_entering_any_group",
        removes="is_entering says True for a character with ANY entering group (any for all): the entering class takes in "
                "characters that are also level or 上/去",
        target="pingshui_show12", message=r"should not share a character|Mandarin should read",
        patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "is_entering",
                                                   [("all(group.startswith(ENTERING) for group in groups)",
                                                     "any(group.startswith(ENTERING) for group in groups)")]))],
        skip=SKIP_PS),
    Mutant(
        name="ps_tone_table_1_3_level",
        removes="the Mandarin tone table misread for the caveat: tones 1 and 3 counted level, 2 and 4 oblique",
        target="pingshui_show12", message=r"Mandarin should read",
        patches=[Patch("pingshui_run12", src_patch("utils.poem_sound", "last_sound",
                                                   [('{"1": "平", "2": "平", "3": "仄", "4": "仄"}',
                                                     '{"1": "平", "2": "仄", "3": "平", "4": "仄"}')]))],
        skip=SKIP_PS),
    Mutant(
        name="ps_level_rhyme_unshared",
        removes="level_rhyme forgets 'if group in shared': it counts line 2's end having any level group, rhyme or not",
        target="pingshui_show12", message=r"level group",
        patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "level_rhyme",
                                                   [("rhyme_table().get(line_a[-1], ()) if group in shared)",
                                                     "rhyme_table().get(line_a[-1], ()))")]))],
        skip=SKIP_PS),
    Mutant(
        name="ps_simplified_forms_missing",
        removes="the traditional-character table is not entered under the simplified forms: it cannot judge the poems' characters",
        target="pingshui_show12", message=r"cover",
        patches=[Patch("pingshui_run12", src_patch("utils.pingshui", "rhyme_table",
                                                   [("for form in {char, to_simplified(char)}:", "for form in {char}:")]))],
        skip=SKIP_PS),
    # ---------------- triangle_show12 (sparsity_triangle) ----------------
    Mutant(
        name="tri_unseen_on_training",
        removes="the unseen share is measured on the training poems, not held out: nothing is unseen",
        target="triangle_show12", message=r"most held-out n-grams should be unseen",
        edits=[Edit("triangle_run12", '"unseen": kn.unseen_share(dataset.val)', '"unseen": kn.unseen_share(dataset.train)')],
        skip=SKIP_TRI),
    Mutant(
        name="tri_english_is_poems",
        removes="the English comparison loads the poems themselves (CORPUS): no small vocabulary to compare against",
        target="triangle_show12", message=r"far sparser than English",
        edits=[Edit("triangle_run12", 'english = load_dataset("pydocs")', "english = load_dataset(CORPUS)")],
        skip=SKIP_TRI),
    Mutant(
        name="tri_perplexity_on_training",
        removes="the perplexity is measured on the training poems: long contexts are never unseen, so they pay",
        target="triangle_show12", message=r"too sparse to pay",
        edits=[Edit("triangle_run12", '"perplexity": kn.perplexity(dataset.val)', '"perplexity": kn.perplexity(dataset.train)')],
        skip=SKIP_TRI),
    # ---------------- families_show12 (transformer_beats_ngram) ----------------
    Mutant(
        name="fam_transformer_undertrained",
        removes="the Transformer's budget cut to 100 steps in the fast run: an undertrained model",
        target="families_show12", message=r"should beat the best n-gram",
        edits=[Edit("params12", "STEPS = pick(full=700, fast=300)", "STEPS = pick(full=700, fast=100)")],
        skip=SKIP_FAM),
    Mutant(
        name="fam_band_not_in_force",
        removes="the control's band reaches 32 characters: it reads the whole poem, not the last 4",
        target="families_show12", message=r"banded control's logits",
        edits=[Edit("train12", BANDED_REACH, "tie_weights=True), reach=32),")],
        skip=SKIP_FAM),
    Mutant(
        name="fam_transformer_not_causal",
        removes="the Transformer is built with causal=False: it reads the character it predicts",
        target="families_show12", message=r"should not read the characters after",
        edits=[Edit("train12", TRANSFORMER_POS,
                    TRANSFORMER_POS.replace("tie_weights=True))", "tie_weights=True, causal=False))"))],
        skip=SKIP_FAM),
    Mutant(
        name="fam_banded_no_positions",
        removes="the banded control loses its learned positions (positional='none'): the prose credits embeddings AND "
                "positions for its lead over the 5-gram",
        target="families_show12", message=r"should still beat the",
        edits=[Edit("train12", 'positional="learned", tie_weights=True), reach=REACH)',
                    'positional="none", tie_weights=True), reach=REACH)')],
        skip=SKIP_FAM),
    # ---------------- context_show12 (context_beyond_window) ----------------
    Mutant(
        name="ctx_transformer_banded",
        removes="the 'full' Transformer is built banded (BandedTransformerLM, reach 4): its attention cannot see beyond the window",
        target="context_show12", message=r"should take something from the characters beyond",
        edits=[Edit("train12", '"transformer": lambda: TransformerLM(', '"transformer": lambda: BandedTransformerLM(')],
        skip=SKIP_CTX),
    Mutant(
        name="ctx_swap_inside_window",
        removes="the swap replaces the characters inside the window (:cut -> cut:) instead of those beyond it",
        target="context_show12", message=r"disagree",
        edits=[Edit("context_run12", "swapped[:, :cut] = other_poems[:, :cut]", "swapped[:, cut:] = other_poems[:, cut:t + 1]")],
        skip=SKIP_CTX),
    Mutant(
        name="ctx_transformer_undertrained",
        removes="the Transformer's budget cut to 40 steps: an undertrained model that has not learned to read far back",
        target="context_show12", message=r"should take something from the characters beyond",
        edits=[Edit("params12", "STEPS = pick(full=700, fast=300)", "STEPS = pick(full=700, fast=40)")],
        skip=SKIP_CTX),
    # ---------------- form_show12 (transformer_keeps_form) ----------------
    Mutant(
        name="form_transformer_no_positions",
        removes="the Transformer loses its learned positions (positional='none'): the prose says it keeps the form because "
                "it knows its position",
        target="form_show12", message=r"keep the quatrain form far more often|keep the form as often",
        edits=[Edit("train12", TRANSFORMER_POS, TRANSFORMER_POS.replace('"learned"', '"none"'))],
        skip=SKIP_FORM),
    Mutant(
        name="form_banded_unbanded_when_sampling",
        removes="the banded control's band is dropped on the KV-cache path used for sampling: while writing poems it "
                "reads the whole poem, not the last 4 characters",
        target="form_show12", message=r"keep the form as often|banded control",
        patches=[Patch("sample12", src_patch("utils.banded", "BandedTransformerLM._run", [
            ("bias = band_bias(T, offset, self.bands[layer], idx.device).to(x.dtype)",
             "bias = None if caches is not None else band_bias(T, offset, self.bands[layer], idx.device).to(x.dtype)")]))],
        skip=SKIP_FORM),
    Mutant(
        name="form_transformer_undertrained",
        removes="the Transformer's budget cut to 30 steps: an undertrained model that has not learned the form",
        target="form_show12", message=r"keep the quatrain form far more often",
        edits=[Edit("params12", "STEPS = pick(full=700, fast=300)", "STEPS = pick(full=700, fast=30)")],
        skip=SKIP_FORM),
]
