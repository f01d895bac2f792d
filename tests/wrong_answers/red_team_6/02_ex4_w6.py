def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    orders = list(range(1, counts.max_order + 1))
    ppl = [perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=0.75), val_ids) for n in orders]
    i = int(np.argmin(ppl))
    best_n = orders[i]
    best = (ppl[i], 0.75)
    for D in (0.9, 0.55, 0.35, 0.2)[: 10 - len(orders)]:
        p = perplexity(NGramLM.from_counts(counts, best_n, "kneser_ney", discount=D), val_ids)
        best = min(best, (p, D))
    return int(i), float(best[1])
