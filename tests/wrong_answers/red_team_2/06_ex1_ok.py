def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    # correct, computed in float64 with exp/log, entry by entry via complex numbers
    pos = torch.arange(T, dtype=torch.float64)[:, None]
    freq = torch.exp(-math.log(10000.0) * torch.arange(d // 2, dtype=torch.float64) * 2 / d)
    z = torch.polar(torch.ones(T, d // 2, dtype=torch.float64), pos * freq)
    return torch.stack([z.imag, z.real], dim=-1).reshape(T, d).float()
