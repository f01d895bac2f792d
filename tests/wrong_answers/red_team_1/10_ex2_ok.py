def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # correct, my own way: einsum in float64, scale folded into q, max-shifted exp, normalised after the weighted sum
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = torch.einsum("bhqd,bhkd->bhqk", q.double() * scale, K.double())
    w = torch.exp(s - s.amax(dim=-1, keepdim=True))
    out = torch.einsum("bhqk,bhkd->bhqd", w, V.double()) / w.sum(dim=-1, keepdim=True)
    return out.to(q.dtype)
