# mistake: continuation counts at the unigram level are right, but the bigram level discounts proportionally instead of
# absolutely: p = (1 - D) c(a b) / c(a .) + D p_lower(b), i.e. Jelinek-Mercer interpolation with lambda = 1 - D. When every
# count is 1 (the visible comparison table) c - D = (1 - D) c and D T(a) = D c(a .), so it agrees there; with counts above 1
# Kneser-Ney subtracts a FIXED D from each count and frees only D T(a) / c(a .), so a context seen often keeps far more
# of its own evidence.
def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:
    """Interpolated Kneser-Ney bigram: (V, V) counts (row a = previous token) -> (V, V) probabilities p(b | a)."""
    counts = counts.double()
    V = counts.shape[1]
    continuation = (counts > 0).double().sum(dim=0)  # (V,): N1+(. b)
    p_lower = ((continuation - discount).clamp(min=0) + discount * (continuation > 0).sum() / V) / continuation.sum()
    total = counts.sum(dim=1, keepdim=True)  # (V, 1)
    probs = (1 - discount) * counts / total.clamp(min=1) + discount * p_lower  # discount a share of every count
    return torch.where(total > 0, probs, p_lower.expand_as(probs))
