# mistake: replaces counts by "seen or not" everywhere, also at the bigram level: c(a b) becomes 1 for every seen bigram,
# so after token 0 (seen 6 times before 1) the model is as unsure as after a context seen once. The visible checks only
# compare on a table where no bigram occurs twice (where the two agree) and the row after 3 (all counts 1); Kneser-Ney
# uses continuation counts only BELOW the top order, and the top order keeps the raw counts.
def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:
    """Interpolated Kneser-Ney bigram: (V, V) counts (row a = previous token) -> (V, V) probabilities p(b | a)."""
    seen = (counts > 0).double()  # (V, V): the continuation idea applied to every level
    V = seen.shape[1]
    lower = seen.sum(dim=0)
    p_lower = ((lower - discount).clamp(min=0) + discount * (lower > 0).sum() / V) / lower.sum()
    context_total = seen.sum(dim=1, keepdim=True)
    followers = seen.sum(dim=1, keepdim=True)
    probs = ((seen - discount).clamp(min=0) + discount * followers * p_lower) / context_total.clamp(min=1)
    return torch.where(context_total > 0, probs, p_lower)
