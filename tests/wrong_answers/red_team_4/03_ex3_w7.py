# mistake: the self-exclusion is done by value: every row whose cosine rounds to >= 1 - 1e-6 is dropped (rows pointing almost the same way vanish), and self can survive if it rounds below
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    order = similarity.argsort(descending=True).tolist()
    return [j for j in order if similarity[j] < 1 - 1e-6][:k]
