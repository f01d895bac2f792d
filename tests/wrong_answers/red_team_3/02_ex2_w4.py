# mistake: reads k as the TOTAL pseudo-count of a row, spread over the V tokens: (c(a b) + k/V) / (c(a .) + k). Rows sum to
# 1, all entries are positive and a uniform row (the only one the visible checks compare) is unchanged, but section 3's
# add-k adds k to every token: (c(a b) + k) / (c(a .) + k V), V times more smoothing.
def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:
    """Row a: the add-k distribution of the token after a (counts: (V, V), row a = previous token)."""
    counts = counts.double()
    V = counts.shape[1]
    return (counts + k / V) / (counts.sum(dim=1, keepdim=True) + k)
