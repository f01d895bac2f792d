"""Red team P: mutants of 09_decoding.ipynb."""
from tests.mutation.spec import Edit, Mutant, Patch
from tests.mutation.redteam_help import src_patch

NOTEBOOK = "09_decoding.ipynb"

SHOW_T = "27cb18aa"        # temperature_sharpens_and_flattens
SHOW_TRAP = "beam_trap"    # beam_search_beats_greedy
SHOW_RANDOM = "beam_random"  # beam_matches_exhaustive_search
SHOW_LN = "length_norm"    # length_normalisation
SHOW_CMP = "193081ff"      # search_likely_sampling_diverse
SHOW_ENT = "sample_entropy"  # sampling_scores_the_entropy

# cells the table shows do not need (no zoo, no section-1/2 cells)
SKIP_TABLES = ["load_models", "27cb18aa", "8b1c97ff"]
# the comparison needs the zoo, section 1 (logits, softmax import), section 2 (methods), an import of beam_search
SKIP_CMP = ["beam_random", "length_norm"]

# rebind the names that hold generate() elsewhere (utils.decoding imported it by name; the notebook too)
REBIND_GENERATE = "\nimport utils.decoding as _dec, utils.sampling as _smp\n_dec.generate = _smp.generate\ngenerate = _smp.generate\n"

MUTANTS = [
    # ---------------------------------------------------------------- show 1: temperature
    Mutant(
        name="small_t_treated_as_greedy",
        removes="softmax_with_temperature short-cuts every T <= 0.01 to the argmax one-hot instead of computing "
                "softmax((x - max) / T): the near-greedy panel at T = 0.01 no longer comes from the formula (near-ties "
                "would not share the mass as the prose says)",
        target=SHOW_T,
        message="greedy|softmax\\(logits / T\\)|flatten|uniform",
        patches=[Patch(SHOW_T, src_patch("utils.sampling", "softmax_with_temperature",
                                         [("if temperature == 0:", "if temperature <= 0.01:")]))],
    ),
    Mutant(
        name="large_t_treated_as_uniform",
        removes="softmax_with_temperature returns the uniform distribution for T >= 10 instead of softmax(x / T): "
                "the 'close to uniform at T = 10' panel is uniform by fiat, not by the temperature",
        target=SHOW_T,
        message="uniform|softmax\\(logits / T\\)|flatten",
        patches=[Patch(SHOW_T, src_patch("utils.sampling", "softmax_with_temperature",
                                         [("    return F.softmax(_scale(logits, temperature), dim=-1)",
                                           "    if temperature >= 10:\n"
                                           "        return torch.full_like(logits, 1.0 / logits.size(-1))\n"
                                           "    return F.softmax(_scale(logits, temperature), dim=-1)")]))],
    ),
    # ---------------------------------------------------------------- show 2: the greedy trap
    Mutant(
        name="beam_ranks_by_new_token_only",
        removes="beam_step ranks the (beam, token) pairs by the new token's log p alone, not by the summed log p of "
                "the whole sequence (the values it returns are still the sums)",
        target=SHOW_TRAP,
        message="B = 2|baba|optimum|largest summed",
        skip=SKIP_TABLES,
        patches=[Patch(SHOW_TRAP, src_patch("utils.decoding", "beam_step", [
            ("best = torch.topk(totals.flatten(), min(width, totals.numel()))",
             "best = torch.topk(log_probs.flatten(), min(width, totals.numel()))"),
            ("return best.values, best.indices // vocab", "return totals.flatten()[best.indices], best.indices // vocab"),
        ]))],
    ),
    # ---------------------------------------------------------------- show 3: 200 random tables
    Mutant(
        name="same_table_every_draw",
        removes="the 200 'random' tables are one table drawn 200 times (generator re-seeded inside the loop): the "
                "counts say nothing about random tables",
        target=SHOW_RANDOM,
        message="greedy should miss|missed",
        skip=SKIP_TABLES + ["beam_trap"],
        edits=[Edit(SHOW_RANDOM, "rates = -torch.rand(3, 3, generator=generator).log()",
                    "rates = -torch.rand(3, 3, generator=torch.Generator().manual_seed(SEED)).log()")],
    ),
    Mutant(
        name="random_beam_ranks_by_new_token_only",
        removes="beam_step ranks the (beam, token) pairs by the new token's log p alone (not the summed log p): narrow "
                "beams no longer search by sequence probability",
        target=SHOW_RANDOM,
        message="largest summed|greedy should miss|missed|own tokens",
        skip=SKIP_TABLES + ["beam_trap"],
        patches=[Patch(SHOW_RANDOM, src_patch("utils.decoding", "beam_step", [
            ("best = torch.topk(totals.flatten(), min(width, totals.numel()))",
             "best = torch.topk(log_probs.flatten(), min(width, totals.numel()))"),
            ("return best.values, best.indices // vocab", "return totals.flatten()[best.indices], best.indices // vocab"),
        ]))],
    ),
    # ---------------------------------------------------------------- show 4: length penalty
    Mutant(
        name="beam_final_rank_ignores_penalty",
        removes="beam search ranks its finished and alive hypotheses at the end by the plain sum log p, ignoring the "
                "length penalty (alpha has no effect on the beam)",
        target=SHOW_LN,
        message="exhaustive|length penalty|longer",
        skip=SKIP_TABLES + ["beam_random"],
        patches=[Patch(SHOW_LN, src_patch("utils.decoding", "beam_search",
                                          [("key=lambda h: h.score(length_norm)", "key=lambda h: h.log_prob")],
                                          rebind="package_beam_search"))],
    ),
    Mutant(
        name="penalty_length_excludes_stop",
        removes="Hypothesis.score divides by lp of the length without the stop token (not GNMT's |Y|)",
        target=SHOW_LN,
        message="length penalty|longer|b c",
        skip=SKIP_TABLES + ["beam_random"],
        patches=[Patch(SHOW_LN, src_patch("utils.decoding", "Hypothesis.score",
                                          [("length_penalty(len(self.tokens), length_norm)",
                                            "length_penalty(len(self.tokens) - int(self.finished), length_norm)")]))],
    ),
    # ---------------------------------------------------------------- show 5: decoders side by side
    Mutant(
        name="generate_default_nucleus_095",
        removes="generate() silently applies top-p 0.95 when no top_p is given: the table's 'sample T=1' row no "
                "longer draws from the model's own distribution (its tail is cut)",
        target=SHOW_CMP,
        message="reference sampler|own distribution",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_CMP, src_patch("utils.sampling", "generate", [
            ("next_ids = sample_next(logits, temperature, top_k, top_p, generator)",
             "next_ids = sample_next(logits, temperature, top_k, 0.95 if top_p is None else top_p, generator)"),
        ]) + REBIND_GENERATE)],
    ),
    Mutant(
        name="beam_cache_sorted_parents",
        removes="beam search reorders the KV caches by the sorted parent list, not by each survivor's own parent: "
                "beams continue from another beam's history",
        target=SHOW_CMP,
        message="log p of its tokens|likelier|beam",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_CMP, src_patch("utils.decoding", "beam_search", [
            ("index = torch.tensor(survivor_parents, device=prefix_ids.device)",
             "index = torch.tensor(sorted(survivor_parents), device=prefix_ids.device)"),
        ], rebind="package_beam_search"))],
    ),
    Mutant(
        name="beam_scores_raw_logits",
        removes="cached beam search sums raw logits instead of log-probabilities (log_softmax dropped after each "
                "step; invisible on the table models, whose outputs are already log p)",
        target=SHOW_CMP,
        message="log p of its tokens|likelier|beam|search",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_CMP, src_patch("utils.decoding", "beam_search", [
            ("            log_probs = F.log_softmax(logits.float(), dim=-1)\n",
             "            log_probs = logits.float()\n"),
        ], rebind="package_beam_search"))],
    ),
    Mutant(
        name="cmp_sampler_drops_tiny_probs",
        removes="sample_next zeroes every token with probability < 1e-3 before drawing (after next_token_probs): the "
                "'sample T=1' sampler no longer draws from the model's own distribution",
        target=SHOW_CMP,
        message="reference sampler|own distribution",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_CMP, src_patch("utils.sampling", "sample_next", [
            ("    probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)\n",
             "    probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)\n"
             "    probs = torch.where(probs < 1e-3, torch.zeros_like(probs), probs)\n"),
        ]))],
    ),
    # ---------------------------------------------------------------- show 6: sampling scores the entropy
    Mutant(
        name="sampler_drops_tiny_probs",
        removes="sample_next zeroes every token with probability < 1e-3 before drawing (after next_token_probs, which "
                "the cell checks): samples no longer come from softmax(logits / T)",
        target=SHOW_ENT,
        message="entropy|temperature|softmax",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_ENT, src_patch("utils.sampling", "sample_next", [
            ("    probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)\n",
             "    probs = next_token_probs(logits, temperature, top_k, top_p)  # (B, V)\n"
             "    probs = torch.where(probs < 1e-3, torch.zeros_like(probs), probs)\n"),
        ]))],
    ),
    Mutant(
        name="generate_default_nucleus_098",
        removes="generate() silently applies top-p 0.98 when no top_p is given: the T = 1 samples (and the controls) "
                "no longer come from the model's own (tempered) distribution",
        target=SHOW_ENT,
        message="entropy|temperature|softmax",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_ENT, src_patch("utils.sampling", "generate", [
            ("next_ids = sample_next(logits, temperature, top_k, top_p, generator)",
             "next_ids = sample_next(logits, temperature, top_k, 0.98 if top_p is None else top_p, generator)"),
        ]) + REBIND_GENERATE)],
    ),
    Mutant(
        name="cmp_generate_default_top_k_50",
        removes="generate() silently applies top-k 50 (the Hugging Face default) when no top_k is given: the table's "
                "'sample T=1' row no longer draws from the model's own distribution",
        target=SHOW_CMP,
        message="reference sampler|own distribution",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_CMP, src_patch("utils.sampling", "generate", [
            ("next_ids = sample_next(logits, temperature, top_k, top_p, generator)",
             "next_ids = sample_next(logits, temperature, 50 if top_k is None else top_k, top_p, generator)"),
        ]) + REBIND_GENERATE)],
    ),
    Mutant(
        name="generate_default_top_k_50",
        removes="generate() silently applies top-k 50 (the Hugging Face default) when no top_k is given: samples at "
                "T = 0.7, 1, 1.4 no longer come from softmax(logits / T) (the tail is cut)",
        target=SHOW_ENT,
        message="entropy|temperature|softmax",
        skip=SKIP_CMP,
        patches=[Patch(SHOW_ENT, src_patch("utils.sampling", "generate", [
            ("next_ids = sample_next(logits, temperature, top_k, top_p, generator)",
             "next_ids = sample_next(logits, temperature, 50 if top_k is None else top_k, top_p, generator)"),
        ]) + REBIND_GENERATE)],
    ),
]
