# mistake: the token itself is set to the current minimum similarity: it ties with the least similar row, so at k = V - 1 which of the two is listed depends on topk's tie order
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = similarity.min()
    return similarity.topk(k).indices.tolist()
