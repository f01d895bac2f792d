def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    best_n, best_p = 1, math.inf
    for n in range(1, min(counts.max_order, 6) + 1):
        p = perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=0.75), val_ids)
        if p < best_p:
            best_n, best_p = n, p
    D = 0.75
    for D in (0.9, 0.6, 0.45, 0.3)[: 10 - min(counts.max_order, 6)]:
        p = perplexity(NGramLM.from_counts(counts, best_n, "kneser_ney", discount=D), val_ids)
    return int(best_n), float(D)
