def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    # mistake: positions 1..T (off by one)
    pos = torch.arange(1, T + 1, dtype=torch.float32)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float32)
    ang = pos / 10000 ** (i / d)
    pe = torch.zeros(T, d); pe[:, 0::2] = torch.sin(ang); pe[:, 1::2] = torch.cos(ang)
    return pe
