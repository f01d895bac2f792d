def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # mistake: "fixes" the overflow by clamping the scores instead of subtracting the maximum
    scores = (q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])).clamp(-60.0, 60.0)
    e = scores.exp()
    return (e / e.sum(dim=-1, keepdim=True)) @ V
