def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # mistake: softmax by hand without subtracting the row maximum (overflows on large scores)
    scores = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])
    e = scores.exp()
    return (e / e.sum(dim=-1, keepdim=True)) @ V
