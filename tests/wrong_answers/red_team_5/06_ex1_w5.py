# mistake: returns float64 (computed in double "for accuracy"); the colleague's function returns float32
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float64)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    frequencies = torch.exp(-math.log(10000.0) * (2 * (columns // 2)) / d)  # (1, d)
    angles = positions * frequencies  # (T, d)
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
