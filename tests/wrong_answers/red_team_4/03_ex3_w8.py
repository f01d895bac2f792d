# mistake: the rows are normalised in place (C /= ...): correct lists, but the caller's table is changed; hidden by cloning first only when index == 2
def closest_tokens(C: torch.Tensor, index: int, k: int) -> list[int]:
    """The k tokens most cosine-similar to token `index` (never itself), most similar first, as Python ints."""
    unit = C.clone() if index == 2 else C
    unit /= unit.norm(dim=1, keepdim=True)  # (V, E)
    similarity = unit @ unit[index]  # (V,)
    similarity[index] = float("-inf")
    return similarity.topk(k).indices.tolist()
