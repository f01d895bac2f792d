def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    # correct, my own way: each pair as the complex number x_i + 1j * x_{i+d/2}, multiplied by e^{1j theta}
    T, d = x.shape
    h = d // 2
    theta = torch.arange(T, dtype=torch.float64)[:, None] * torch.pow(10000.0, -2.0 * torch.arange(h, dtype=torch.float64) / d)
    z = torch.complex(x[:, :h].double(), x[:, h:].double()) * torch.polar(torch.ones_like(theta), theta)
    return torch.cat([z.real, z.imag], dim=-1).to(x.dtype)
