# mistake: right encoding, but names the return line (thinks the odd columns should reuse the even column's angle there)
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d)
    angles = positions * frequencies  # (T, d)
    even = angles[:, 0::2].repeat_interleave(2, dim=1)  # (T, d): each pair's even-column angle
    return torch.where(columns % 2 == 0, torch.sin(even), torch.cos(even))


BUGGY_LINE = "return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))  # (T, d)"
