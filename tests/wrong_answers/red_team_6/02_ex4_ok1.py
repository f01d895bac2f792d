def tune_kneser_ney(counts: NGramCounts, val_ids: list[int], perplexity) -> tuple[int, float]:
    """The order n (1..counts.max_order) and discount D of Kneser-Ney with the lowest perplexity(model, val_ids), <= 10 models."""
    cache = {}

    def score(n, D):
        D = round(float(D), 4)
        if (n, D) not in cache:
            cache[(n, D)] = perplexity(NGramLM.from_counts(counts, n, "kneser_ney", discount=D), val_ids)
        return cache[(n, D)]

    top = counts.max_order
    best_n = top
    for n in range(top, 0, -1):
        if len(cache) >= 5:
            break
        if score(n, 0.75) <= score(best_n, 0.75):
            best_n = n
        elif n < best_n - 1:
            break
    lo, hi = 0.15, 0.99
    g = (5 ** 0.5 - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    while len(cache) < 10:
        if score(best_n, a) < score(best_n, b):
            hi, b = b, a
            a = hi - g * (hi - lo)
        else:
            lo, a = a, b
            b = lo + g * (hi - lo)
        if len(cache) >= 9:
            break
    n, D = min(cache, key=cache.get)
    return int(n), float(D)
