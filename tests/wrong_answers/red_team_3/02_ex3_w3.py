# mistake: backoff, not interpolation, and a symptom fix: tokens seen after a keep the colleague's probabilities (raw-count
# unigram level inside), only the tokens never seen after a get the continuation-count unigram level, then each row is
# renormalised so that it sums to 1. On a table where no bigram occurs twice raw and continuation counts agree, and after
# token 3 both 1 and 3 are unseen, so the visible checks pass; the course's Kneser-Ney mixes the continuation-count
# lower order into EVERY probability, and the renormalisation changes all the others.
def kneser_ney_probs(counts: torch.Tensor, discount: float) -> torch.Tensor:
    """Interpolated Kneser-Ney bigram: (V, V) counts (row a = previous token) -> (V, V) probabilities p(b | a)."""
    counts = counts.double()
    V = counts.shape[1]

    def level(lower):
        return ((lower - discount).clamp(min=0) + discount * (lower > 0).sum() / V) / lower.sum()

    def bigram(p_lower):
        total = counts.sum(dim=1, keepdim=True)
        followers = (counts > 0).sum(dim=1, keepdim=True)
        probs = ((counts - discount).clamp(min=0) + discount * followers * p_lower) / total.clamp(min=1)
        return torch.where(total > 0, probs, p_lower)

    raw, continuation = bigram(level(counts.sum(dim=0))), bigram(level((counts > 0).double().sum(dim=0)))
    probs = torch.where(counts > 0, raw, continuation)
    return probs / probs.sum(dim=1, keepdim=True)
