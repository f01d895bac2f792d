# mistake: the continuation counts are right, but a context never seen gets the uniform distribution 1/V instead of the
# unigram level. Every context of the visible tables was seen, so the checks cannot see it; the statement asks for "a
# context never seen given the unigram level", and the course's Kneser-Ney backs off to p_KN(b), not to 1/V.
def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:
    """Interpolated Kneser-Ney bigram: (V, V) counts (row a = previous token) -> (V, V) probabilities p(b | a)."""
    counts = counts.double()
    V = counts.shape[1]
    continuation = (counts > 0).double().sum(dim=0)  # (V,): distinct predecessors
    p_lower = ((continuation - discount).clamp(min=0) + discount * (continuation > 0).sum() / V) / continuation.sum()
    total = counts.sum(dim=1, keepdim=True)
    followers = (counts > 0).sum(dim=1, keepdim=True)
    probs = ((counts - discount).clamp(min=0) + discount * followers * p_lower) / total.clamp(min=1)
    return torch.where(total > 0, probs, torch.full_like(probs, 1.0 / V))  # no evidence at all: uniform
