"""Second red team's mutants of 09_decoding.ipynb (written from the notebook alone by a helper that had not seen tests/mutants/; 20 of 21 killed in its run, 2026-12-05). Only the killed ones are adopted, renamed rt2_*; the survivors are listed in the closing note of that stop."""
import sys
from tests.mutation.redteam_help import src_patch

from tests.mutation.spec import Edit, Mutant, Patch  # noqa: E402

NOTEBOOK = "09_decoding.ipynb"

UNTRAINED = """
torch.manual_seed(123)
transformer = TransformerLM(transformer.config).eval()  # same architecture, never trained
print('MUTANT ACTIVE: untrained transformer')
"""

def beam_wrapper(expr: str) -> str:
    """Replace utils.decoding.beam_search by the real one called with beam_width = expr(B)."""
    return f"""
import utils.decoding as _d
_orig_beam = _d.beam_search
def _mut_beam(model, prefix, max_new_tokens, beam_width=4, *args, **kwargs):
    B = beam_width
    return _orig_beam(model, prefix, max_new_tokens, {expr}, *args, **kwargs)
_d.beam_search = _mut_beam
package_beam_search = _mut_beam  # the notebook's own name, bound by an earlier cell
print('MUTANT ACTIVE: beam width -> {expr}')
"""

NO_SCORE = src_patch("utils.decoding", "beam_step", [("totals = scores[:, None] + log_probs",
                                                      "totals = 0 * scores[:, None] + log_probs")])

MULTIPLY_PKG = """
import utils.sampling as _s
_orig_st = _s.softmax_with_temperature
def _mult(logits, temperature=1.0):
    logits = logits.float()
    if temperature == 0:
        return _orig_st(logits, 0)
    return torch.softmax((logits - logits.max(dim=-1, keepdim=True).values) * temperature, dim=-1)
_s.softmax_with_temperature = _mult
print('MUTANT ACTIVE: temperature multiplies')
"""
CLAMP_PKG = """
import utils.sampling as _s
_orig_st = _s.softmax_with_temperature
_s.softmax_with_temperature = lambda logits, temperature=1.0: _orig_st(logits, min(max(temperature, 0.5), 2.0) if temperature else 0)
print('MUTANT ACTIVE: temperature clamped to [0.5, 2]')
"""

MUTANTS = [
    # ---- 27cb18aa temperature_sharpens_and_flattens
    Mutant("t_untrained_model", "the trained model: an untrained Transformer's logits are nearly flat at T = 1",
           "27cb18aa", ".", patches=[Patch("27cb18aa", UNTRAINED)]),
    Mutant("t_multiplies", "division by T: logits multiplied by T (package and cell alike), so T sharpens instead of flattening",
           "27cb18aa", ".", patches=[Patch("27cb18aa", MULTIPLY_PKG)]),
    Mutant("t_clamped", "the range of T: temperature clamped to [0.5, 2] for 'safety' (package and cell alike)",
           "27cb18aa", ".", patches=[Patch("27cb18aa", CLAMP_PKG)]),
    # ---- beam_trap beam_search_beats_greedy
    Mutant("trap_no_score_accumulation", "summed log p: beam candidates ranked by the new token's log p alone",
           "beam_trap", ".", patches=[Patch("beam_trap", NO_SCORE)]),
    Mutant("trap_beam_is_greedy", "the beam: search keeps one hypothesis whatever B is", "beam_trap", ".",
           patches=[Patch("beam_trap", beam_wrapper("1"))]),
    Mutant("trap_width_off_by_one", "the width: beam keeps B - 1 hypotheses", "beam_trap", ".",
           patches=[Patch("beam_trap", beam_wrapper("max(1, B - 1)"))]),
    # ---- beam_random beam_matches_exhaustive_search
    Mutant("random_width_capped_9", "an unpruned beam: width silently capped at 9", "beam_random", ".",
           patches=[Patch("beam_random", beam_wrapper("min(B, 9)"))]),
    Mutant("random_no_score_accumulation", "summed log p: candidates ranked by the last token's log p alone",
           "beam_random", ".", patches=[Patch("beam_random", NO_SCORE)]),
    Mutant("random_worst_first", "ranking: the final hypotheses returned worst first", "beam_random", ".",
           patches=[Patch("beam_random", """
import utils.decoding as _d
_orig_beam = _d.beam_search
_d.beam_search = lambda *a, **k: list(reversed(_orig_beam(*a, **k)))
package_beam_search = _d.beam_search
print('MUTANT ACTIVE: worst first')
""")]),
    # ---- length_norm length_normalisation
    Mutant("ln_penalty_ignored", "the length penalty: lp = 1 for every alpha", "length_norm", ".",
           patches=[Patch("length_norm", "import utils.decoding as _d\n_d.length_penalty = lambda length, alpha: 1.0\n")]),
    Mutant("ln_penalty_inverted", "the direction of the penalty: lp = ((5 + L) / 6) ** -alpha", "length_norm", ".",
           patches=[Patch("length_norm", "import utils.decoding as _d\n_d.length_penalty = lambda length, alpha: ((5 + length) / 6) ** (-alpha)\n")]),
    Mutant("ln_finished_dropped", "finished hypotheses: sentences ending in the stop token never compete",
           "length_norm", ".", patches=[Patch("length_norm", src_patch("utils.decoding", "beam_search",
                                                                      [("finished.append(hypothesis)", "pass")],
                                                                      rebind="package_beam_search"))]),
    # ---- 193081ff search_likely_sampling_diverse
    Mutant("cmp_untrained_model", "the trained model: every decoder runs on an untrained Transformer", "193081ff", ".",
           patches=[Patch("193081ff", UNTRAINED)]),
    Mutant("cmp_sampler_is_greedy", "sampling: the 'sample T=1' method is greedy (temperature 0)", "193081ff", ".",
           edits=[Edit("8b1c97ff", 'DecodingMethod("sample T=1")', 'DecodingMethod("sample T=1", temperature=0)')]),
    Mutant("cmp_beam_is_greedy", "the beam: every beam width searches with one hypothesis", "193081ff", ".",
           patches=[Patch("193081ff", beam_wrapper("1"))]),
    Mutant("cmp_sampler_cold", "T = 1 sampling: the reference sampler runs at T = 0.5", "193081ff", ".",
           edits=[Edit("8b1c97ff", 'DecodingMethod("sample T=1")', 'DecodingMethod("sample T=1", temperature=0.5)')]),
    # ---- sample_entropy sampling_scores_the_entropy
    Mutant("ent_sampler_ignores_temperature", "temperature in sampling: every draw at T = 1", "sample_entropy", ".",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "sample_next", [
               ("probs = next_token_probs(logits, temperature, top_k, top_p)", "probs = next_token_probs(logits, 1.0, top_k, top_p)")]))]),
    Mutant("ent_scored_at_sampling_temperature", "scoring at T = 1: samples scored under the tempered distribution they came from",
           "sample_entropy", ".", edits=[Edit("sample_entropy", "log_p, log_q = F.log_softmax(scores, dim=-1),",
                                              "log_p, log_q = F.log_softmax(scores / temperature, dim=-1),")]),
    Mutant("ent_sampler_truncates_tail", "drawing from the model's full distribution: a default top-p 0.95 cuts the tail",
           "sample_entropy", ".", patches=[Patch("sample_entropy", src_patch("utils.sampling", "next_token_probs", [
               ("if top_p is not None:", "if True:"),
               ("scaled = top_p_filter(scaled, top_p)", "scaled = top_p_filter(scaled, 0.95 if top_p is None else top_p)")]))]),
    Mutant("ent_sampler_slightly_cold", "drawing at T = 1: the T = 1 draws use T = 0.9", "sample_entropy", ".",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "sample_next", [
               ("probs = next_token_probs(logits, temperature, top_k, top_p)",
                "probs = next_token_probs(logits, 0.9 if temperature == 1.0 else temperature, top_k, top_p)")]))]),
    # aimed at sample_entropy; since the compare show (193081ff) asserts its reference sampler is T = 1 (2026-12-05), it
    # is killed there, before it reaches sample_entropy: re-targeted at the show that kills it (2026-12-06)
    Mutant("ent_table_sampler_cold", "T = 1 sampling: the table's reference sampler runs at T = 0.5 (cmp_sampler_cold, aimed at the next show)",
           "193081ff", "the reference sampler must draw from the model's own distribution", edits=[Edit("8b1c97ff", 'DecodingMethod("sample T=1")', 'DecodingMethod("sample T=1", temperature=0.5)')]),
]


import dataclasses as _dataclasses  # noqa: E402

# cmp_sampler_cold survived the team's run; the show was mended after it (2026-12-05) and now kills it
_KILLED = ['cmp_sampler_cold', 'cmp_beam_is_greedy', 'cmp_sampler_is_greedy', 'cmp_untrained_model', 'ent_sampler_ignores_temperature', 'ent_sampler_slightly_cold', 'ent_sampler_truncates_tail', 'ent_scored_at_sampling_temperature', 'ent_table_sampler_cold', 'ln_finished_dropped', 'ln_penalty_ignored', 'ln_penalty_inverted', 'random_no_score_accumulation', 'random_width_capped_9', 'random_worst_first', 't_clamped', 't_multiplies', 't_untrained_model', 'trap_beam_is_greedy', 'trap_no_score_accumulation', 'trap_width_off_by_one']
MUTANTS = [_dataclasses.replace(m, name='rt2_' + m.name) for m in MUTANTS if m.name in _KILLED]
