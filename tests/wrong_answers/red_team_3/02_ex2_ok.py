def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:
    """Row a: the add-k distribution of the token after a (counts: (V, V), row a = previous token)."""
    # The colleague divided by c(a .) + k * T(a), T(a) = the tokens seen after a, but k is added to all V tokens of the
    # row: the denominator must be c(a .) + k V, or the rows sum to more than 1 (and the perplexity is not one).
    pseudo = counts.double() + k  # (V, V): every token gets k more
    return pseudo / pseudo.sum(dim=1, keepdim=True)  # (V, V): = (c(a b) + k) / (c(a .) + k V)
