# right: normalise rows (dim=1), drop the query by -inf, topk
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = float("-inf")
    return [int(j) for j in similarity.topk(k).indices]
