# mistake: assumes the token itself is always the most similar and drops the first of the top k+1; wrong when another row points the same way (cosine 1 ties, or rounds above the self-similarity)
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    return similarity.topk(k + 1).indices.tolist()[1:]
