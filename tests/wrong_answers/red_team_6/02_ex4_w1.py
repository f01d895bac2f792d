def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    n = counts.max_order
    scores = {}
    for D in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
        scores[D] = perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=D), val_ids)
    return int(n), float(min(scores, key=scores.get))
