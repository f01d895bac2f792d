def my_rope(x: torch.Tensor) -> torch.Tensor:
    # correct, via complex multiplication in float64
    T, d = x.shape; h = d // 2
    ang = torch.arange(T, dtype=torch.float64)[:, None] * torch.pow(10000.0, -2 * torch.arange(h, dtype=torch.float64) / d)
    z = torch.complex(x[:, :h].double(), x[:, h:].double()) * torch.exp(1j * ang)
    return torch.cat([z.real, z.imag], dim=-1).to(x.dtype)
