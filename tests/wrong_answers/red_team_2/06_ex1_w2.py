def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    # mistake: halves layout (sin block then cos block) instead of interleaved
    pos = torch.arange(T, dtype=torch.float32)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float32)
    ang = pos / 10000 ** (i / d)
    return torch.cat([torch.sin(ang), torch.cos(ang)], dim=-1)
