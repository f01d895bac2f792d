"""Red team G: mutants of notebook 09 (decoding). Each removes the cause the prose credits for one show's effect."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "09_decoding.ipynb"

NOOP = "pass  # baseline: no change\n"
# beam_step ranks by a decayed score (disc * score so far + log p of the new token) but still returns the summed values
def _decayed(disc):
    return src_patch("utils.decoding", "beam_step", [
        ("best = torch.topk(totals.flatten(), min(width, totals.numel()))",
         f"best = torch.topk(({disc} * scores[:, None] + log_probs).flatten(), min(width, totals.numel()))"),
        ("return best.values, best.indices // vocab", "return totals.flatten()[best.indices], best.indices // vocab"),
    ])

SKIP_TRAP = ["load_models", "27cb18aa", "8b1c97ff"]
SKIP_RANDOM = ["load_models", "27cb18aa", "8b1c97ff", "beam_trap"]
SKIP_LEN = ["load_models", "27cb18aa", "8b1c97ff", "beam_random"]
SKIP_CMP = ["beam_random", "length_norm"]

MUTANTS = [
    # ---- 27cb18aa temperature_sharpens_and_flattens
    Mutant("base_temperature", "nothing (baseline)", "27cb18aa", r"NEVER", patches=[Patch("27cb18aa", NOOP)]),
    Mutant("temp_divides_probabilities", "temperature divides the probabilities, not the logits: softmax(softmax(x) / T)",
           "27cb18aa", r"temperature|uniform|greedy|should",
           patches=[Patch("27cb18aa", src_patch("utils.sampling", "softmax_with_temperature", [
               ("return F.softmax(_scale(logits, temperature), dim=-1)",
                "return F.softmax(F.softmax(logits, dim=-1) / temperature, dim=-1)")]))]),
    Mutant("temp_capped_at_3", "dividing by a large T: temperatures above 3 act as 3, so T -> infinity no longer approaches uniform",
           "27cb18aa", r"uniform|flatten|softmax\(logits / T\)",  # the last alternative: added with the mend of 27cb18aa
           patches=[Patch("27cb18aa", src_patch("utils.sampling", "_scale", [
               ("return (logits - top) / temperature", "return (logits - top) / min(temperature, 3.0)")]))]),
    Mutant("temp_floored_at_0p2", "dividing by a small T: temperatures below 0.2 act as 0.2, so T -> 0 no longer approaches argmax",
           "27cb18aa", r"greedy|flatten",
           patches=[Patch("27cb18aa", src_patch("utils.sampling", "_scale", [
               ("return (logits - top) / temperature", "return (logits - top) / max(temperature, 0.2)")]))]),
    # ---- beam_trap beam_search_beats_greedy
    Mutant("base_trap", "nothing (baseline)", "beam_trap", r"NEVER", patches=[Patch("beam_trap", NOOP)], skip=SKIP_TRAP),
    Mutant("trap_decayed_rank", "beam search does not rank by the summed log p: it ranks by 0.7 * score so far + log p of the new token",
           "beam_trap", r"miss|beat|aaaa|optimum|largest summed log p", patches=[Patch("beam_trap", _decayed(0.7))], skip=SKIP_TRAP),
    Mutant("trap_rank_new_token", "beam search ranks candidates by the new token's log p alone (the summed value is kept)",
           "beam_trap", r"miss|beat|aaaa|optimum", patches=[Patch("beam_trap", _decayed(0.0))], skip=SKIP_TRAP),
    Mutant("trap_keeps_one_less", "the beam keeps B - 1 hypotheses (at least 1): B = 2 is greedy, B = 3 is B = 2",
           "beam_trap", r"miss|beat|aaaa|optimum",
           patches=[Patch("beam_trap", src_patch("utils.decoding", "beam_search", [
               ("if len(survivors) < beam_width:", "if len(survivors) < max(1, beam_width - 1):")]))], skip=SKIP_TRAP),
    # ---- beam_random beam_matches_exhaustive_search
    Mutant("base_random", "nothing (baseline)", "beam_random", r"NEVER", patches=[Patch("beam_random", NOOP)], skip=SKIP_RANDOM),
    Mutant("random_decayed_rank", "beam search ranks by 0.7 * score so far + new log p, not by the summed log p",
           "beam_random", r"greedy should miss|prunes nothing|summed",
           patches=[Patch("beam_random", _decayed(0.7))], skip=SKIP_RANDOM),
    Mutant("random_rank_new_token", "beam search ranks candidates by the new token's log p alone (the summed value is kept)",
           "beam_random", r"greedy should miss|prunes nothing|summed",
           patches=[Patch("beam_random", _decayed(0.0))], skip=SKIP_RANDOM),
    Mutant("random_one_table", "200 independent random tables: the generator is reseeded inside the loop, so the same table is drawn 200 times",
           "beam_random", r"greedy should miss|prunes nothing|summed",
           edits=[Edit("beam_random", "for _ in range(n_tables):\n    rates",
                       "for _ in range(n_tables):\n    generator = torch.Generator().manual_seed(SEED)\n    rates")],
           skip=SKIP_RANDOM),
    # ---- length_norm length_normalisation
    Mutant("base_length", "nothing (baseline)", "length_norm", r"NEVER", patches=[Patch("length_norm", NOOP)], skip=SKIP_LEN),
    Mutant("lp_ignores_length", "GNMT's penalty does not depend on the length: lp = ((5 + 1) / 6)**alpha",
           "length_norm", r"alpha|longer|exhaustive",
           patches=[Patch("length_norm", src_patch("utils.decoding", "length_penalty", [
               ("return ((5 + length) / 6) ** alpha", "return ((5 + 1) / 6) ** alpha")]))], skip=SKIP_LEN),
    Mutant("lp_multiplies", "the score multiplies log p by lp instead of dividing (longer sentences are penalised more)",
           "length_norm", r"alpha|longer|exhaustive",
           patches=[Patch("length_norm", src_patch("utils.decoding", "Hypothesis.score", [
               ("return self.log_prob / length_penalty(", "return self.log_prob * length_penalty(")]))], skip=SKIP_LEN),
    Mutant("finished_dropped", "finished hypotheses (ending in the stop token) never compete: the beam drops them",
           "length_norm", r"alpha|longer|exhaustive|stop at once",
           patches=[Patch("length_norm", src_patch("utils.decoding", "beam_search", [
               ("finished.append(hypothesis)", "pass")], rebind="package_beam_search"))], skip=SKIP_LEN),
    # ---- 193081ff search_likely_sampling_diverse
    Mutant("base_compare", "nothing (baseline)", "193081ff", r"NEVER", patches=[Patch("193081ff", NOOP)], skip=SKIP_CMP),
    Mutant("compare_decayed_rank", "beam search ranks by 0.7 * score so far + new log p, not by the summed log p",
           "193081ff", r"keep, at every step|likelier|beam",
           patches=[Patch("193081ff", _decayed(0.7))], skip=SKIP_CMP),
    Mutant("decode_beam_is_greedy", "the table's beam rows are not beam search: decode() runs every beam method with width 1",
           "193081ff", r"beam|likelier|repeat|diverse",
           patches=[Patch("193081ff", src_patch("utils.decoding", "decode", [
               ("method.beam_width, method.length_norm, stop_id)", "1, method.length_norm, stop_id)")]))],
           skip=SKIP_CMP),
    Mutant("greedy_samples_low_t", "greedy is not a search: temperature 0 samples at T = 0.3 instead of taking the argmax",
           "193081ff", r"search|likelier|diverse|repeat|random generator",
           patches=[Patch("193081ff", src_patch("utils.sampling", "sample_next", [
               ("        return logits.argmax(dim=-1)\n", "        temperature = 0.3\n")]))], skip=SKIP_CMP),
    Mutant("sampler_halves_t", "the reference sampler does not draw from the model's distribution: every T > 0 is halved (T = 1 draws at 0.5)",
           "193081ff", r"diverse|repeat|likelier|reference",
           patches=[Patch("193081ff", src_patch("utils.sampling", "sample_next", [
               ("probs = next_token_probs(logits, temperature, top_k, top_p)",
                "probs = next_token_probs(logits, temperature / 2, top_k, top_p)")]))], skip=SKIP_CMP),
    # ---- sample_entropy sampling_scores_the_entropy
    Mutant("base_entropy", "nothing (baseline)", "sample_entropy", r"NEVER", patches=[Patch("sample_entropy", NOOP)], skip=SKIP_CMP),
    Mutant("hidden_top_p_098", "samples are not drawn from the model's own distribution: a hidden nucleus p = 0.98 cuts the tail",
           "sample_entropy", r"entropy|temperature",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "next_token_probs", [
               ("    if top_p is not None:\n        scaled = top_p_filter(scaled, top_p)",
                "    scaled = top_p_filter(scaled, 0.98 if top_p is None else top_p)")]))], skip=SKIP_CMP),
    Mutant("hidden_top_p_099", "samples are not drawn from the model's own distribution: a hidden nucleus p = 0.99 cuts the tail",
           "sample_entropy", r"entropy|temperature",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "next_token_probs", [
               ("    if top_p is not None:\n        scaled = top_p_filter(scaled, top_p)",
                "    scaled = top_p_filter(scaled, 0.99 if top_p is None else top_p)")]))], skip=SKIP_CMP),
    Mutant("hidden_top_k_40", "samples are not drawn from the model's own distribution: a hidden GPT-2-style top-k 40 default",
           "sample_entropy", r"entropy|temperature",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "next_token_probs", [
               ("    if top_k is not None:\n        scaled = top_k_filter(scaled, top_k)",
                "    scaled = top_k_filter(scaled, 40 if top_k is None else top_k)")]))], skip=SKIP_CMP),
    Mutant("sampler_inverts_t", "the sampler draws at 1 / T (T = 1 unchanged; the 0.7 and 1.4 controls swap)",
           "sample_entropy", r"entropy|temperature|controls",
           patches=[Patch("sample_entropy", src_patch("utils.sampling", "sample_next", [
               ("probs = next_token_probs(logits, temperature, top_k, top_p)",
                "probs = next_token_probs(logits, 1 / temperature, top_k, top_p)")]))], skip=SKIP_CMP),
]
