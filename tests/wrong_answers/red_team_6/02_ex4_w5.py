def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    ids = torch.tensor(val_ids)
    scores = {}
    for n in range(1, counts.max_order + 1):
        for D in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95):
            lp = NGramLM.from_counts(counts, n, "kneser_ney", discount=D).token_log_probs(ids)
            scores[(n, D)] = float(-lp.mean())
    n, D = min(scores, key=scores.get)
    perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=D), val_ids)
    return int(n), float(D)
