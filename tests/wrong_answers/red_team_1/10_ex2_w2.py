def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # mistake: divides by d_head instead of sqrt(d_head)
    scores = q @ K.transpose(-2, -1) / q.shape[-1]
    return torch.softmax(scores, dim=-1) @ V
