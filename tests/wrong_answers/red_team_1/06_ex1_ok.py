def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # correct, my own way: complex exponentials e^{i pos w} in float64, (sin, cos) interleaved by stack + reshape
    pos = torch.arange(T, dtype=torch.float64)
    log_freq = -(torch.arange(d // 2, dtype=torch.float64) * 2.0 / d) * math.log(10000.0)
    z = torch.polar(torch.ones(T, d // 2, dtype=torch.float64), pos[:, None] * torch.exp(log_freq)[None, :])
    return torch.stack([z.imag, z.real], dim=-1).reshape(T, d).float()
