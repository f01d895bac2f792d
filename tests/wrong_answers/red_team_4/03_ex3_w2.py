# mistake: only the self-exclusion bug fixed (-inf); the rows are still divided by the column norms (dim=0), so longer rows are preferred
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C / C.norm(dim=0, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = float("-inf")
    return similarity.topk(k).indices.tolist()
