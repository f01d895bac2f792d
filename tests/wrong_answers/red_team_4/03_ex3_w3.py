# mistake: the token itself is given similarity -1 (the smallest cosine "can be") instead of -inf: it ties with an exactly opposite row and, with rounding, can beat a row at cosine -1.0000001
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = -1.0
    return similarity.topk(k).indices.tolist()
