def my_rope(x: torch.Tensor) -> torch.Tensor:
    # mistake: frequency 10000^(-i/d) (forgot the 2)
    T, d = x.shape; h = d // 2
    ang = torch.arange(T, dtype=x.dtype)[:, None] * 10000 ** (-torch.arange(h, dtype=x.dtype) / d)
    c, s = torch.cos(ang), torch.sin(ang)
    a, b = x[:, :h], x[:, h:]
    return torch.cat([a * c - b * s, a * s + b * c], dim=-1)
