def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    scores = {n: perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=0.75), val_ids)
              for n in range(1, counts.max_order + 1)}
    return int(min(scores, key=scores.get)), 0.75
