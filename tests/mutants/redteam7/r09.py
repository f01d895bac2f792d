"""Red team C: mutants of 09_decoding.ipynb (one cause removed per mutant; the show's assert should fail)."""
from tests.mutation.redteam_help import src_patch
from tests.mutation.spec import Edit, Mutant, Patch

NOTEBOOK = "09_decoding.ipynb"

# cells not needed by the toy-table shows (they use only the parameters and the imports cell)
TOY_SKIP = ["load_models", "27cb18aa", "8b1c97ff"]
# cells not needed by section 4 (package_beam_search is re-imported by a patch before 193081ff)
SEC4_SKIP = ["beam_trap", "beam_random", "length_norm"]
IMPORT_BEAM = "from utils.decoding import beam_search as package_beam_search\n"

# --- beam search mutations (utils.decoding) -------------------------------------------------------------------
NO_RUNNING_SCORE = src_patch("utils.decoding", "beam_step", [
    ("best = torch.topk(totals.flatten(), min(width, totals.numel()))",
     "best = torch.topk(log_probs.flatten(), min(width, totals.numel()))  # rank by the new token's log p"),
    ("return best.values, best.indices // vocab", "return totals.flatten()[best.indices], best.indices // vocab"),
])
PER_PARENT_GREEDY = src_patch("utils.decoding", "beam_step", [
    ("totals = scores[:, None] + log_probs  # (N, V)",
     "totals = scores[:, None] + log_probs  # (N, V)\n"
     "    if scores.numel() > 1:  # after the first step each beam is extended by its own best token only\n"
     "        totals = totals.masked_fill(log_probs < log_probs.max(dim=1, keepdim=True).values, float('-inf'))"),
])
WIDTH_OFF_BY_ONE = src_patch("utils.decoding", "beam_search", [
    ("if len(survivors) < beam_width:", "if len(survivors) <= beam_width:"),
])
WORST_FIRST = src_patch("utils.decoding", "beam_search", [
    ("key=lambda h: h.score(length_norm), reverse=True)", "key=lambda h: h.score(length_norm))"),
])
SCORE_LAST_TOKEN = src_patch("utils.decoding", "beam_search", [
    ("hypothesis = Hypothesis(alive[parent].tokens + (token,), value, token == stop_id)",
     "hypothesis = Hypothesis(alive[parent].tokens + (token,), float(log_probs[parent, token]), token == stop_id)"),
])
CAP_16 = src_patch("utils.decoding", "beam_search", [
    ("_check_search(beam_width, max_new_tokens, length_norm)",
     "_check_search(beam_width, max_new_tokens, length_norm)\n    beam_width = min(beam_width, 16)  # cap the beams (memory)"),
])
KEEPS_ONE = src_patch("utils.decoding", "beam_search", [
    ("if len(survivors) < beam_width:", "if len(survivors) < 1:"),
])
LP_MULTIPLIES = src_patch("utils.decoding", "Hypothesis.score", [
    ("return self.log_prob / length_penalty(", "return self.log_prob * length_penalty("),
])
FINISHED_DROPPED = src_patch("utils.decoding", "beam_search", [
    ("ranked = sorted(finished + alive,", "ranked = sorted(alive,"),
])
BEAM_IGNORES_ALPHA = src_patch("utils.decoding", "beam_search", [
    ("key=lambda h: h.score(length_norm), reverse=True)", "key=lambda h: h.log_prob, reverse=True)"),
])

# --- sampler mutations (utils.sampling) -----------------------------------------------------------------------
T_MULTIPLIES = src_patch("utils.sampling", "_scale", [
    ("return (logits - top) / temperature", "return (logits - top) * temperature"),
])
T_FLOOR = src_patch("utils.sampling", "softmax_with_temperature", [
    ("return F.softmax(_scale(logits, temperature), dim=-1)",
     "return F.softmax(_scale(logits, max(temperature, 0.25)), dim=-1)  # floor: tiny T overflows"),
])
SAMPLER_ARGMAX = src_patch("utils.sampling", "sample_next", [
    ("return torch.multinomial(probs, 1, generator=generator).squeeze(-1)", "return probs.argmax(dim=-1)"),
])
GREEDY_IS_SAMPLING = src_patch("utils.sampling", "sample_next", [
    ("    _check_temperature(temperature)\n    if temperature == 0:",
     "    _check_temperature(temperature)\n    temperature = temperature or 1.0  # 0: the default\n    if temperature == 0:"),
])
SAMPLER_IGNORES_T = src_patch("utils.sampling", "next_token_probs", [
    ("scaled = _scale(logits, temperature)", "scaled = _scale(logits, 1.0)"),
])
SAMPLER_SQRT_T = src_patch("utils.sampling", "next_token_probs", [
    ("scaled = _scale(logits, temperature)", "scaled = _scale(logits, temperature ** 0.5)"),
])
SAMPLER_DEFAULT_TOP_P = src_patch("utils.sampling", "next_token_probs", [
    ("    if top_p is not None:", "    top_p = 0.9 if top_p is None else top_p  # nucleus sampling by default\n    if top_p is not None:"),
])
SAMPLER_DEFAULT_TOP_K50 = src_patch("utils.sampling", "next_token_probs", [
    ("    if top_k is not None:", "    top_k = 50 if top_k is None else top_k  # the usual library default\n    if top_k is not None:"),
])
UNTRAINED = "torch.manual_seed(SEED)\ntransformer = TransformerLM(transformer.config).eval()  # a fresh, never trained model\n"

MUTANTS = [
    # ---- 27cb18aa temperature_sharpens_and_flattens
    Mutant("t_multiplies", "temperature divides the logits (it multiplies them instead: T > 1 sharpens)", "27cb18aa",
           "does not flatten", patches=[Patch("27cb18aa", T_MULTIPLIES)]),
    Mutant("t_floor", "the T -> 0 limit (a safety floor clamps T at 0.25, so T = 0.01 is not near greedy)", "27cb18aa",
           "greedy", patches=[Patch("27cb18aa", T_FLOOR)]),
    Mutant("untrained_transformer", "a trained model (a fresh, untrained Transformer is looked at)", "27cb18aa",
           "far from uniform", patches=[Patch("27cb18aa", UNTRAINED)]),
    # ---- beam_trap beam_search_beats_greedy
    Mutant("trap_no_running_score", "ranking by the summed log p (candidates ranked by the new token's log p)",
           "beam_trap", "greedy should write aaaa", patches=[Patch("beam_trap", NO_RUNNING_SCORE)], skip=TOY_SKIP),
    Mutant("trap_per_parent_greedy", "expanding each beam by every token (each beam extended by its best token only)",
           "beam_trap", "greedy should write aaaa", patches=[Patch("beam_trap", PER_PARENT_GREEDY)], skip=TOY_SKIP),
    Mutant("trap_width_off_by_one", "keeping exactly B hypotheses (B + 1 kept: B = 1 is not greedy, B = 2 keeps c)",
           "beam_trap", "B = 2 should miss it|greedy should write aaaa", patches=[Patch("beam_trap", WIDTH_OFF_BY_ONE)],
           skip=TOY_SKIP),
    # ---- beam_random beam_matches_exhaustive_search
    Mutant("random_worst_first", "returning the best hypothesis (final ranking ascending: the worst kept one is returned)",
           "beam_random", "prunes nothing must find the optimum", patches=[Patch("beam_random", WORST_FIRST)],
           skip=TOY_SKIP + ["beam_trap"]),
    Mutant("random_score_last_token", "the summed log p as the beam's score (only the last token's log p is kept)",
           "beam_random", "summed log p of its own tokens", patches=[Patch("beam_random", SCORE_LAST_TOKEN)],
           skip=TOY_SKIP + ["beam_trap"]),
    Mutant("random_cap_16", "a beam of 27 that prunes nothing before the last step (beams capped at 16)",
           "beam_random", "keep every candidate before the last step", patches=[Patch("beam_random", CAP_16)],
           skip=TOY_SKIP + ["beam_trap"]),
    # ---- length_norm length_normalisation
    Mutant("lp_multiplies", "dividing by the length penalty (log p multiplied by lp: longer is punished more)",
           "length_norm", "b c \\.' win|longer sentences should win", patches=[Patch("length_norm", LP_MULTIPLIES + IMPORT_BEAM)],
           skip=TOY_SKIP + ["beam_trap", "beam_random"]),
    Mutant("finished_dropped", "finished (stop-token) hypotheses competing in the beam's final ranking", "length_norm",
           "should pick what exhaustive search picks", patches=[Patch("length_norm", FINISHED_DROPPED + IMPORT_BEAM)],
           skip=TOY_SKIP + ["beam_trap", "beam_random"]),
    Mutant("beam_ignores_alpha", "the length penalty in beam search's final ranking (ranked by the plain sum)",
           "length_norm", "should pick what exhaustive search picks",
           patches=[Patch("length_norm", BEAM_IGNORES_ALPHA + IMPORT_BEAM)], skip=TOY_SKIP + ["beam_trap", "beam_random"]),
    # ---- 193081ff search_likely_sampling_diverse
    Mutant("sec4_sampler_argmax", "random draws of the T = 1 sampler (it takes the argmax of its distribution)",
           "193081ff", "less diverse", patches=[Patch("193081ff", SAMPLER_ARGMAX + IMPORT_BEAM)], skip=SEC4_SKIP),
    Mutant("sec4_greedy_is_sampling", "greedy's argmax (temperature 0 read as the default 1: greedy samples)",
           "193081ff", "far likelier", patches=[Patch("193081ff", GREEDY_IS_SAMPLING + IMPORT_BEAM)], skip=SEC4_SKIP),
    Mutant("sec4_beam_keeps_one", "the B alternatives of beam search (only the best survivor is kept: greedy)",
           "193081ff", "likelier sequence than greedy", patches=[Patch("193081ff", KEEPS_ONE + IMPORT_BEAM)],
           skip=SEC4_SKIP),
    Mutant("sec4_no_running_score", "ranking beams by the summed log p (ranked by the new token's log p)",
           "193081ff", "likelier sequence than greedy|far likelier|less diverse|repeat more|largest summed log p",
           patches=[Patch("193081ff", NO_RUNNING_SCORE + IMPORT_BEAM)], skip=SEC4_SKIP),
    # (the last alternative of the regex was added when 193081ff was mended: its new assert checks the beam's ranking)
    # ---- sample_entropy sampling_scores_the_entropy
    Mutant("ent_sampler_ignores_t", "the sampler's temperature (it always draws at T = 1)", "sample_entropy",
           "controls should miss", patches=[Patch("193081ff", IMPORT_BEAM), Patch("sample_entropy", SAMPLER_IGNORES_T)],
           skip=SEC4_SKIP),
    Mutant("ent_sampler_sqrt_t", "drawing at the temperature given (draws at sqrt(T))", "sample_entropy",
           "draw at the temperature it is given",
           patches=[Patch("193081ff", IMPORT_BEAM), Patch("sample_entropy", SAMPLER_SQRT_T)], skip=SEC4_SKIP),
    Mutant("ent_default_top_p", "drawing from the model's own distribution at T = 1 (a top-p 0.9 default cuts the tail)",
           "sample_entropy", "T = 1 samples should score the entropy",
           patches=[Patch("193081ff", IMPORT_BEAM), Patch("sample_entropy", SAMPLER_DEFAULT_TOP_P)], skip=SEC4_SKIP),
    Mutant("ent_default_top_k50", "drawing from the model's own distribution at T = 1 (a top-k 50 default, as in common "
           "libraries, cuts the tail of the ~100-token vocabulary)", "sample_entropy", "T = 1 samples should score the entropy|"
           "draw at the temperature it is given",
           patches=[Patch("193081ff", IMPORT_BEAM), Patch("sample_entropy", SAMPLER_DEFAULT_TOP_K50)], skip=SEC4_SKIP),
]
