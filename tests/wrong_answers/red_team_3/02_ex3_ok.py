def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:
    """Interpolated Kneser-Ney bigram: (V, V) counts (row a = previous token) -> (V, V) probabilities p(b | a)."""
    # The colleague's unigram level used how often b occurs, c(. b); Kneser-Ney's lower order uses the continuation
    # count N1+(. b): how many DIFFERENT tokens were seen before b. Everything else was right.
    counts = counts.double()  # (V, V)
    V = counts.shape[1]
    continuation = (counts > 0).double().sum(dim=0)  # (V,): N1+(. b), distinct predecessors of b
    total = continuation.sum()  # N1+(. .): the number of distinct bigram types
    p_lower = ((continuation - discount).clamp(min=0) + discount * (continuation > 0).sum() / V) / total  # (V,)
    row_total = counts.sum(dim=1, keepdim=True)  # (V, 1)
    followers = (counts > 0).double().sum(dim=1, keepdim=True)  # (V, 1): T(a)
    mixed = ((counts - discount).clamp(min=0) + discount * followers * p_lower[None, :]) / row_total.clamp(min=1)
    return torch.where(row_total > 0, mixed, p_lower[None, :].expand_as(mixed))  # unseen context: the unigram level
