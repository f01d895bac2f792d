# mistake: only the normalisation bug fixed (rows normalised along dim=1); the token itself is still set to 0, so it is listed when every other row is negatively similar or k is large
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = 0
    return similarity.topk(k).indices.tolist()
