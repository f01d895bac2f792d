def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # mistake: softmax over the query dimension (-2) instead of the keys
    scores = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(scores, dim=-2) @ V
