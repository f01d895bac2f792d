# mistake: the norm is clamped at 1 (a "safe" denominator), so rows shorter than 1 are not normalised: short rows lose to long ones
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True).clamp(min=1.0)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = float("-inf")
    return similarity.topk(k).indices.tolist()
