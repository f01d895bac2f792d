# right: cosine in float64 with explicit norms, the query removed from the candidate list before sorting
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    D = C.double()
    norms = D.norm(dim=1)  # (V,)
    cos = (D @ D[index]) / (norms * norms[index])  # (V,)
    others = [j for j in range(C.shape[0]) if j != index]
    others.sort(key=lambda j: -float(cos[j]))
    return others[:k]
