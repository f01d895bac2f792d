def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    # mistake: wrong convention, interleaved pairs (2i, 2i+1) instead of (i, i + d/2)
    T, d = x.shape
    theta = torch.arange(T, dtype=torch.float32)[:, None] * 10000 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    even, odd = x[:, 0::2], x[:, 1::2]
    out = torch.empty_like(x)
    out[:, 0::2] = even * torch.cos(theta) - odd * torch.sin(theta)
    out[:, 1::2] = even * torch.sin(theta) + odd * torch.cos(theta)
    return out
