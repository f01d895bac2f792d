# mistake: adds the pseudo-count k only to the tokens never seen after a (zero cells), and leaves the seen counts as
# they are, then normalises the row. Rows sum to 1, nothing is 0, and a row where every token was seen (the visible row
# 2) is unchanged; but add-k adds k to EVERY count: p(b | a) = (c(a b) + k) / (c(a .) + k V), which differs on every
# row that has both seen and unseen tokens.
def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:
    """Row a: the add-k distribution of the token after a (counts: (V, V), row a = previous token)."""
    counts = counts.double()
    filled = torch.where(counts > 0, counts, torch.full_like(counts, k))  # (V, V): k where nothing was seen
    return filled / filled.sum(dim=1, keepdim=True)
