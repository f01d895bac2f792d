"""Red team L: mutants of 09_decoding.ipynb, at least two per show cell, plus a no-change baseline per show."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "09_decoding.ipynb"

T1, TRAP, RAND, LN, CMP, ENT = "27cb18aa", "beam_trap", "beam_random", "length_norm", "193081ff", "sample_entropy"
NO_MODELS = ["load_models", "27cb18aa", "8b1c97ff"]  # the table shows need no trained model
SKIP_TRAP = NO_MODELS
SKIP_RAND = NO_MODELS + [TRAP]
SKIP_LN = NO_MODELS + [RAND]  # beam_trap imports package_beam_search, which length_norm uses
SKIP_CMP = [RAND, LN]
MSG = r"should|does not|must"
NOOP = "pass  # baseline: nothing changed\n"

BEAM = lambda reps: src_patch("utils.decoding", "beam_search", reps, rebind="package_beam_search")
SAMPLE_NEXT = lambda reps: src_patch("utils.sampling", "sample_next", reps)

# beam search ranks candidates by the new token's log p alone (the running score is still carried correctly)
NEW_TOKEN_RANK = [("values, parents, tokens = beam_step(scores, log_probs, width)",
                   "values, parents, tokens = beam_step(torch.zeros_like(scores), log_probs, width)\n"
                   "        values = scores[parents] + log_probs[parents, tokens]")]

MUTANTS = [
    # ---- show temperature_sharpens_and_flattens -------------------------------------------------------------
    Mutant("base_temperature_sharpens_and_flattens", "nothing (baseline)", T1, MSG, patches=[Patch(T1, NOOP)]),
    Mutant("t_multiplies", "temperature multiplies the logits instead of dividing them", T1, MSG,
           patches=[Patch(T1, src_patch("utils.sampling", "_scale",
                                        [("return (logits - top) / temperature", "return (logits - top) * temperature")]))]),
    Mutant("t_squared", "the softmax divides by T**2 instead of T (entropy still rises with T)", T1, MSG,
           patches=[Patch(T1, src_patch("utils.sampling", "_scale",
                                        [("return (logits - top) / temperature", "return (logits - top) / temperature ** 2")]))]),
    Mutant("t_floor", "a 'safety' floor T >= 0.5: T -> 0 no longer approaches argmax", T1, MSG,
           patches=[Patch(T1, src_patch("utils.sampling", "softmax_with_temperature",
                                        [("return F.softmax(_scale(logits, temperature), dim=-1)",
                                          "return F.softmax(_scale(logits, max(temperature, 0.5)), dim=-1)")]))]),
    # ---- show beam_search_beats_greedy ---------------------------------------------------------------------
    Mutant("base_beam_search_beats_greedy", "nothing (baseline)", TRAP, MSG, patches=[Patch(TRAP, NOOP)], skip=SKIP_TRAP),
    Mutant("trap_new_token_rank", "beam ranks by the new token's log p, not the summed log p", TRAP, MSG,
           patches=[Patch(TRAP, BEAM(NEW_TOKEN_RANK))], skip=SKIP_TRAP),
    Mutant("trap_keeps_b_plus_1", "the beam keeps B + 1 hypotheses (off by one): B = 2 acts as B = 3", TRAP, MSG,
           patches=[Patch(TRAP, BEAM([("if len(survivors) < beam_width:", "if len(survivors) < beam_width + 1:")]))],
           skip=SKIP_TRAP),
    Mutant("trap_forgets_score", "the beam forgets its running score (each step starts from 0)", TRAP, MSG,
           patches=[Patch(TRAP, BEAM([("scores = torch.tensor([h.log_prob for h in alive], device=log_probs.device)",
                                       "scores = torch.zeros(len(alive), device=log_probs.device)")]))], skip=SKIP_TRAP),
    # ---- show beam_matches_exhaustive_search ---------------------------------------------------------------
    Mutant("base_beam_matches_exhaustive_search", "nothing (baseline)", RAND, MSG, patches=[Patch(RAND, NOOP)],
           skip=SKIP_RAND),
    Mutant("rand_returns_worst", "the final ranking is ascending: beam search returns the least likely of its beams",
           RAND, MSG, patches=[Patch(RAND, BEAM([("reverse=True)", "reverse=False)")]))], skip=SKIP_RAND),
    Mutant("rand_parent_mixup", "a new hypothesis extends beam 0's tokens, not its parent's (score from the parent)",
           RAND, MSG, patches=[Patch(RAND, BEAM([("alive[parent].tokens + (token,)", "alive[0].tokens + (token,)")]))],
           skip=SKIP_RAND),
    Mutant("rand_new_token_rank", "beam ranks by the new token's log p, not the summed log p", RAND, MSG,
           patches=[Patch(RAND, BEAM(NEW_TOKEN_RANK))], skip=SKIP_RAND),
    # ---- show length_normalisation ------------------------------------------------------------------------
    Mutant("base_length_normalisation", "nothing (baseline)", LN, MSG, patches=[Patch(LN, NOOP)], skip=SKIP_LN),
    Mutant("ln_no_penalty", "the length penalty is not applied (lp = 1 for every alpha)", LN, MSG,
           patches=[Patch(LN, src_patch("utils.decoding", "length_penalty",
                                        [("return ((5 + length) / 6) ** alpha", "return 1.0")]))], skip=SKIP_LN),
    Mutant("ln_multiplies", "the score multiplies log p by lp instead of dividing", LN, MSG,
           patches=[Patch(LN, src_patch("utils.decoding", "Hypothesis.score",
                                        [("return self.log_prob / length_penalty", "return self.log_prob * length_penalty")]))],
           skip=SKIP_LN),
    Mutant("ln_drops_finished", "beam search drops hypotheses that end in the stop token", LN, MSG,
           patches=[Patch(LN, BEAM([("finished.append(hypothesis)", "pass")]))], skip=SKIP_LN),
    # ---- show search_likely_sampling_diverse ---------------------------------------------------------------
    Mutant("base_search_likely_sampling_diverse", "nothing (baseline)", CMP, MSG, patches=[Patch(CMP, NOOP)], skip=SKIP_CMP),
    Mutant("cmp_greedy_samples", "greedy (T = 0) samples at T = 1 instead of taking the argmax", CMP, MSG,
           patches=[Patch(CMP, SAMPLE_NEXT([("return logits.argmax(dim=-1)", "temperature = 1.0")]))], skip=SKIP_CMP),
    Mutant("cmp_double_softmax", "the sampler draws from softmax(probs) (softmax applied twice), not the model's p",
           CMP, MSG, patches=[Patch(CMP, SAMPLE_NEXT([("torch.multinomial(probs, 1",
                                                        "torch.multinomial(F.softmax(probs, dim=-1), 1")]))], skip=SKIP_CMP),
    Mutant("cmp_beam_is_greedy", "the table's beam rows use width 1 (the effect made identical to the control)", CMP, MSG,
           edits=[Edit(CMP, "beam_width=B) for B in BEAM_WIDTHS]", "beam_width=1) for B in BEAM_WIDTHS]")], skip=SKIP_CMP),
    Mutant("cmp_new_token_rank", "beam ranks by the new token's log p, not the summed log p", CMP, MSG,
           patches=[Patch(CMP, BEAM(NEW_TOKEN_RANK))], skip=SKIP_CMP),
    # ---- show sampling_scores_the_entropy ------------------------------------------------------------------
    Mutant("base_sampling_scores_the_entropy", "nothing (baseline)", ENT, MSG, patches=[Patch(ENT, NOOP)], skip=SKIP_CMP),
    Mutant("ent_sqrt_t", "the sampler draws at sqrt(T), not T (T = 1 unchanged; next_token_probs still right)", ENT, MSG,
           patches=[Patch(ENT, SAMPLE_NEXT([("probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)",
                                             "probs = next_token_probs(logits, temperature ** 0.5, top_k, top_p)  # (B, V)")]))],
           skip=SKIP_CMP),
    Mutant("ent_ignores_t", "generate() ignores the temperature (any T > 0 samples at T = 1): controls = effect", ENT, MSG,
           patches=[Patch(ENT, src_patch("utils.sampling", "generate",
                                         [("next_ids = sample_next(logits, temperature, top_k, top_p, generator)",
                                           "next_ids = sample_next(logits, 1.0 if temperature else 0, top_k, top_p, generator)")],
                                         rebind="generate"))], skip=SKIP_CMP),
    Mutant("ent_uniform_noise_argmax", "the draw is argmax(log p + uniform noise), not a draw from p", ENT, MSG,
           patches=[Patch(ENT, SAMPLE_NEXT([("return torch.multinomial(probs, 1, generator=generator).squeeze(-1)",
                                             "return (probs.log() + torch.rand(probs.shape, generator=generator)).argmax(-1)")]))],
           skip=SKIP_CMP),
]

# ---- extra probes (added after the first 25 all ran) ----------------------------------------------------------
MUTANTS += [
    Mutant("ln_alpha_doubled", "lp = ((5 + L) / 6) ** (2 * alpha): the penalty grows twice as fast as GNMT's eq. 14",
           LN, MSG, patches=[Patch(LN, src_patch("utils.decoding", "length_penalty",
                                                 [("return ((5 + length) / 6) ** alpha",
                                                   "return ((5 + length) / 6) ** (2 * alpha)")]))], skip=SKIP_LN),
    Mutant("cmp_sampler_cooler", "the sampler draws at 0.8 T: the T = 1 reference sampler is not the model's p", CMP, MSG,
           patches=[Patch(CMP, SAMPLE_NEXT([("probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)",
                                             "probs = next_token_probs(logits, 0.8 * temperature, top_k, top_p)  # (B, V)")]))],
           skip=SKIP_CMP),
    Mutant("ent_hidden_top_k", "the sampler cuts the tail with a hidden default top-k = 40 (next_token_probs untouched)",
           ENT, MSG, patches=[Patch(ENT, SAMPLE_NEXT([("probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)",
                                                      "probs = next_token_probs(logits, temperature, 40 if top_k is None else top_k, top_p)  # (B, V)")]))],
           skip=SKIP_CMP),
]
