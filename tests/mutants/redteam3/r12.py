"""A red team's mutants (2026-12-06, written from the notebook alone by a helper that had not seen tests/mutants/) of notebook 12's shows rhyme_and_tone (sound_show12) and rhyme_in_period_groups (pingshui_show12). In its run 1 of 7 was killed; the shows were then mended and all 21, re-run, are killed at their show except s_period_judge_for_modern (killed at pingshui_show12, adopted re-targeted there). Two were mended for a bug of their own (p_lines_1_and_3 divided by zero for a model without quatrains; p_other_oblique_includes_entering re-targeted at the rewritten line). Slow tier."""

from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "12_tang_poems.ipynb"

# cells the two shows do not need (plots/asserts of other shows, the decoders, the context swap)
SKIP = ["zipf12", "families_show12", "context_run12", "context_show12", "form_show12", "decoders_run12"]

_MESSAGES = {
    "s_lines_1_and_3": "the proxy should hear the training poems rhyme far above random pairs",
    "s_lines_1_and_2": "the proxy should hear the training poems rhyme far above random pairs",
    "s_random_pair_same_poem": "the control should pair the lines at random",
    "s_random_pair_unshuffled": "the control should pair the lines at random",
    "s_level_oblique_swapped": "line ends should be level far more often than a free place",
    "s_tone_control_same_place": "line ends should be level far more often than a free place|a place the form leaves free",
    "s_rhyme_by_first_character": "the proxy should hear the training poems rhyme far above random pairs",
    "s_samples_made_to_rhyme": "should rhyme about as often as random pairs",
    "s_too_few_samples": "too few quatrains",
    "s_sample_lines_scrambled": "line ends should be level more often than their free first characters",
    "s_period_judge_for_modern_at_ping": "should be narrower than the modern classes",
    "p_period_judge_is_modern": "should be narrower than the modern classes",
    "p_random_pairs_modern": "should be narrower than the modern classes",
    "p_no_simplified_forms": "the table should cover the poems' characters",
    "p_entering_any_group": "should not share a character",
    "p_level_rhyme_any_tone": "should be in a level group",
    "p_samples_made_to_rhyme": "should rhyme about as often as random pairs",
    "p_tone_class_only": "should be narrower than the modern classes",
    "p_lines_1_and_3": "should be in a level group",
    "p_too_few_samples": "too few quatrains",
    "p_other_oblique_includes_entering": "should not share a character",
}


def M(name, removes, target, edits=(), patches=()):
    """One adopted mutant, renamed rt3_*, with the message that killed it."""
    return Mutant(name="rt3_" + name, removes=removes, target=target, message=_MESSAGES[name], edits=list(edits),
                  patches=list(patches), skip=SKIP)


SOUND, PING = "sound_show12", "pingshui_show12"

# a rewrite of poem_sound.sound_report with the positions as parameters
_SOUND_REPORT = '''
import utils.poem_sound as _ps
def _make_report(a=1, b=3, end=-1, first=0):
    def sound_report(poems):
        kept = [_ps.line_ends(p) for p in poems if _ps.is_quatrain(p)]
        if not kept:
            return {"n": 0, "rhyme": float("nan"), "level_ends": float("nan"), "level_first": float("nan")}
        rhyme = level_ends = level_first = 0
        for lines in kept:
            second, fourth = lines[a], lines[b]
            rhyme += _ps.rhymes(second, fourth)
            level_ends += _ps.last_sound(second, end)[1] == "平" and _ps.last_sound(fourth, end)[1] == "平"
            level_first += _ps.last_sound(second, first)[1] == "平" and _ps.last_sound(fourth, first)[1] == "平"
        n = len(kept)
        return {"n": n, "rhyme": rhyme / n, "level_ends": level_ends / n, "level_first": level_first / n}
    return sound_report
'''

_RANDOM_PAIR = '''
import random as _random
import utils.poem_sound as _ps
def _make_pairing(kind):
    def random_pair_rhyme(poems, seed=0, rhyme=None):
        rhyme = rhyme or _ps.rhymes
        kept = [_ps.line_ends(p) for p in poems if _ps.is_quatrain(p)]
        order = list(range(len(kept)))
        if kind == "same":
            partner = {i: i for i in order}
        elif kind == "neighbour":  # not shuffled: the next poem of the corpus, whatever the seed
            partner = {i: (i + 1) % len(kept) for i in order}
        return sum(rhyme(kept[i][1], kept[partner[i]][3]) for i in range(len(kept))) / len(kept)
    return random_pair_rhyme
'''

# the Transformer's samples with line 4's last character replaced by line 2's (made to rhyme)
_FORCE_RHYME = ('{**samples, "transformer": [p[:22] + p[10] + p[23:] if len(p) == 24 else p '
                'for p in samples["transformer"]]}')

MUTANTS = [
    # ---------------- rhyme_and_tone (sound_show12) ----------------
    M("s_lines_1_and_3", "rhyme and tone measured at lines 1 and 3 instead of 2 and 4", SOUND,
      patches=[Patch("sound_run12", _SOUND_REPORT + "_ps.sound_report = _make_report(a=0, b=2)")]),
    M("s_lines_1_and_2", "rhyme and tone measured at lines 1 and 2 instead of 2 and 4", SOUND,
      patches=[Patch("sound_run12", _SOUND_REPORT + "_ps.sound_report = _make_report(a=0, b=1)")]),
    M("s_random_pair_same_poem", "the random-pair control pairs line 2 with line 4 of the same poem", SOUND,
      patches=[Patch("sound_run12", _RANDOM_PAIR + "_ps.random_pair_rhyme = _make_pairing('same')")]),
    M("s_random_pair_unshuffled", "the random pairs are not shuffled: each poem with the next one of the corpus", SOUND,
      patches=[Patch("sound_run12", _RANDOM_PAIR + "_ps.random_pair_rhyme = _make_pairing('neighbour')")]),
    M("s_level_oblique_swapped", "level (tones 1, 2) and oblique (3, 4) swapped", SOUND,
      patches=[Patch("sound_run12", '''
import utils.poem_sound as _ps
def _last_sound(line, position=-1):
    reading = _ps._readings(line)[position]
    tone = reading[-1] if reading[-1].isdigit() else None
    final = reading.rstrip("012345")
    level = {"1": "仄", "2": "仄", "3": "平", "4": "平"}.get(tone) if tone else None
    return _ps.CLASS_OF_FINAL.get(final), level
_ps.last_sound = _last_sound
''')]),
    M("s_tone_control_same_place", "the tone control measured at the line ends too (control = effect)", SOUND,
      patches=[Patch("sound_run12", _SOUND_REPORT + "_ps.sound_report = _make_report(first=-1)")]),
    M("s_rhyme_by_first_character", "the rhyme judge reads the first characters of the lines, not the last", SOUND,
      patches=[Patch("sound_run12", '''
import utils.poem_sound as _ps
def _rhymes(a, b):
    x, y = _ps.last_sound(a, 0)[0], _ps.last_sound(b, 0)[0]
    return x is not None and x == y
_ps.rhymes = _rhymes
''')]),
    M("s_samples_made_to_rhyme", "the Transformer's line 4 ends with line 2's last character (samples made to rhyme)",
      SOUND, edits=[Edit("sound_run12", "for name, poems in samples.items()})", f"for name, poems in {_FORCE_RHYME}.items()}})")]),
    M("s_too_few_samples", "the sample statistics computed over the first 10 samples only", SOUND,
      edits=[Edit("sound_run12", "{name: sound_report(poems) for", "{name: sound_report(poems[:10]) for")]),
    # survived at its own show (sound_show12: every claim there holds for the period's judge too); killed at the next
    M("s_period_judge_for_modern_at_ping", "the 'modern readings' judge silently replaced by the 平水韵 groups", PING,
      patches=[Patch("sound_run12", "import utils.poem_sound as _ps\nfrom utils import pingshui as _pg\n_ps.rhymes = _pg.rhymes")]),
    M("s_sample_lines_scrambled", "the characters of each sample line shuffled: the place (line end) loses its meaning",
      SOUND, edits=[Edit("sound_run12", "for name, poems in samples.items()})",
                         'for name, poems in {**samples, "transformer": [("".join("".join(__import__("random").Random(k).sample(seg, len(seg))) + mark '
                         'for seg, mark in zip([p[0:5], p[6:11], p[12:17], p[18:23]], "，。，。")) if __import__("utils.tang", fromlist=["x"]).is_quatrain(p) else p) '
                         'for k, p in enumerate(samples["transformer"])]}.items()})')]),
    # ---------------- rhyme_in_period_groups (pingshui_show12) ----------------
    M("p_period_judge_is_modern", "the 平水韵 judge replaced by the modern 十三辙 judge", PING,
      patches=[Patch("pingshui_run12", "from utils import pingshui as _pg, poem_sound as _ps\n_pg.rhymes = _ps.rhymes")]),
    M("p_random_pairs_modern", "the period's random pairs judged with the modern readings (rhyme= argument dropped)", PING,
      edits=[Edit("pingshui_run12", "random_pair_rhyme(training_poems, seed, rhyme=pingshui.rhymes)",
                  "random_pair_rhyme(training_poems, seed)")]),
    M("p_no_simplified_forms", "the traditional table not mapped to simplified characters", PING,
      patches=[Patch("pingshui_run12", '''
import importlib.metadata, json
from utils import pingshui as _pg
def _table():
    files = importlib.metadata.distribution(_pg.DISTRIBUTION).files or []
    found = [f for f in files if f.name == _pg.DATA_FILE]
    table = json.loads(found[0].read_text(encoding="utf-8"))
    groups = {}
    for tone_key, parts in table.items():
        for part_groups in parts.values():
            for group, strings in part_groups.items():
                for char in "".join(strings):
                    groups.setdefault(char, set()).add((_pg.TONE_CLASS[tone_key], group))
    return {c: frozenset(e) for c, e in groups.items()}
_T = _table()
_pg.rhyme_table = lambda: _T
''')]),
    M("p_entering_any_group", "a character counted as entering-tone when any (not every) group is 入声", PING,
      patches=[Patch("pingshui_run12", '''
from utils import pingshui as _pg
_pg.is_entering = lambda c: any(g.startswith(_pg.ENTERING) for g in _pg.groups_of(c))
''')]),
    M("p_other_oblique_includes_entering", "the control (other oblique) includes the entering-tone characters", PING,
      edits=[Edit("pingshui_run12", 'if pingshui.tone_class(c) == "仄" and not any(g.startswith(pingshui.ENTERING) for g in pingshui.groups_of(c))}',
                  'if pingshui.tone_class(c) == "仄"}')]),
    M("p_level_rhyme_any_tone", "level_rhyme counts any shared group, level or oblique", PING,
      patches=[Patch("pingshui_run12", '''
from utils import pingshui as _pg
_pg.level_rhyme = lambda a, b: bool(_pg.groups_of(a[-1]) & _pg.groups_of(b[-1]))
''')]),
    M("p_samples_made_to_rhyme", "the Transformer's line 4 ends with line 2's last character", PING,
      edits=[Edit("pingshui_run12", "for name, poems in samples.items()})", f"for name, poems in {_FORCE_RHYME}.items()}})")]),
    M("p_tone_class_only", "rhyme judged by the tone class (平/仄) alone, not the group", PING,
      patches=[Patch("pingshui_run12", '''
from utils import pingshui as _pg
def _rh(a, b):
    x, y = _pg.tone_class(a[-1]), _pg.tone_class(b[-1])
    return x is not None and x == y
_pg.rhymes = _rh
''')]),
    M("p_lines_1_and_3", "the period rhyme measured at lines 1 and 3", PING,
      patches=[Patch("pingshui_run12", '''
from utils import pingshui as _pg
def _rep(poems):
    kept = [_pg.line_ends(p) for p in poems if _pg.is_quatrain(p)]
    n = len(kept)
    if not n:
        return {"n": 0, "rhyme": float("nan"), "level_rhyme": float("nan")}
    return {"n": n, "rhyme": sum(_pg.rhymes(l[0], l[2]) for l in kept) / n,
            "level_rhyme": sum(_pg.level_rhyme(l[0], l[2]) for l in kept) / n}
_pg.sound_report = _rep
''')]),
    M("p_too_few_samples", "the period statistics of the samples over their first 10 only", PING,
      edits=[Edit("pingshui_run12", "{name: pingshui.sound_report(poems) for", "{name: pingshui.sound_report(poems[:10]) for")]),
]
