# right: written my own way, in float64 (pair frequencies 10000^(-2i/d), sin/cos interleaved by stack+reshape), returned as float32
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    pos = torch.arange(T, dtype=torch.float64)[:, None]  # (T, 1)
    inv = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)  # (d/2,)
    ang = pos * inv  # (T, d/2)
    return torch.stack([ang.sin(), ang.cos()], dim=-1).reshape(T, d).float()


BUGGY_LINE = "    frequencies = torch.exp(-math.log(10000.0) * columns / d)"
