def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    # mistake: computed in float16 (to save memory) -> precision far above 1e-5
    pos = torch.arange(T, dtype=torch.float16)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float16)
    ang = pos / (10000 ** (i.float() / d)).half()
    pe = torch.zeros(T, d, dtype=torch.float16); pe[:, 0::2] = torch.sin(ang.float()).half(); pe[:, 1::2] = torch.cos(ang.float()).half()
    return pe.float()
