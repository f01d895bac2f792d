def my_rope(x: torch.Tensor) -> torch.Tensor:
    # mistake: adjacent pairs (2i, 2i+1) convention instead of (i, i+d/2)
    T, d = x.shape
    ang = torch.arange(T, dtype=x.dtype)[:, None] * 10000 ** (-2 * torch.arange(d // 2, dtype=x.dtype) / d)
    c, s = torch.cos(ang), torch.sin(ang)
    a, b = x[:, 0::2], x[:, 1::2]
    out = torch.empty_like(x); out[:, 0::2] = a * c - b * s; out[:, 1::2] = a * s + b * c
    return out
