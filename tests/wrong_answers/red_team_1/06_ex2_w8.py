from utils.positional import _frequencies  # borrows the package's private frequency helper (not on the deny list)


def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    T, d = x.shape
    theta = torch.arange(T, dtype=torch.float32)[:, None] * _frequencies(d, 10000.0)[None, :]
    a, b = x[:, : d // 2], x[:, d // 2 :]
    return torch.cat([a * theta.cos() - b * theta.sin(), a * theta.sin() + b * theta.cos()], dim=-1)
