def add_k_log_probs(train: torch.Tensor, ids: torch.Tensor, vocab_size: int, n: int, k: float) -> torch.Tensor:
    """log p_add-k(ids[t] | its n-1 previous tokens), counted on train, for t = n-1 .. len(ids)-1: (len(ids) - n + 1,)."""
    from collections import Counter
    tr_list, id_list = train.tolist(), ids.tolist()
    grams = Counter(tuple(tr_list[i : i + n]) for i in range(len(tr_list) - n + 1))
    contexts = Counter(tuple(tr_list[i : i + n - 1]) for i in range(len(tr_list) - n + 1))
    out = []
    for t in range(n - 1, len(id_list)):
        h = tuple(id_list[t - n + 1 : t])
        out.append(math.log((grams[h + (id_list[t],)] + k) / (contexts[h] + k * vocab_size)))
    return torch.tensor(out, dtype=torch.float64)
