def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # mistake: scales the caller's query in place (q.div_), so the caller's q is changed; the output is right
    q.div_(math.sqrt(q.shape[-1]))
    return torch.softmax(q @ K.transpose(-2, -1), dim=-1) @ V
