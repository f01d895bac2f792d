def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    scores = {}
    orders = list(range(1, counts.max_order))
    for n in orders:
        scores[(n, 0.75)] = perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=0.75), val_ids)
    best_n = min(scores, key=scores.get)[0]
    for D in (0.3, 0.45, 0.6, 0.9):
        if len(scores) >= 10:
            break
        scores[(best_n, D)] = perplexity(NGramLM.from_counts(counts, best_n, "kneser_ney", discount=D), val_ids)
    n, D = min(scores, key=scores.get)
    return int(n), float(D)
