def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    # mistake: exponent uses column index j instead of 2i (odd column uses j=2i+1)
    pos = torch.arange(T, dtype=torch.float32)[:, None]
    j = torch.arange(d, dtype=torch.float32)
    ang = pos / 10000 ** (j / d)
    pe = torch.where(j.long() % 2 == 0, torch.sin(ang), torch.cos(ang))
    return pe
