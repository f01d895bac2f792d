# mistake: takes "the vocabulary" to be the tokens that occur somewhere in the counts (columns with a count > 0) and adds
# k only to those: tokens never seen in training get probability 0 and the denominator uses k * V_seen. In the visible
# table every column occurs, so it matches; on count tables (or a corpus split) with a token that never follows
# anything, add-k must still give it k / (c(a .) + k V) > 0.
def add_k_probs(counts: torch.Tensor, k: float) -> torch.Tensor:
    """Row a: the add-k distribution of the token after a (counts: (V, V), row a = previous token)."""
    counts = counts.double()
    in_vocab = (counts.sum(dim=0) > 0).double()  # (V,): the tokens the training text contains
    return (counts + k * in_vocab) / (counts.sum(dim=1, keepdim=True) + k * in_vocab.sum())
