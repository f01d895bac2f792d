# mistake: right frequencies in principle, but 10000.0 ** (2i) is computed before the d-th root: float32 overflows to inf from 2i >= 10 (d >= 12), those columns freeze at (0, 1)
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    angles = positions / (10000.0 ** (2 * (columns // 2)).float()) ** (1.0 / d)  # pos / (10000^(2i))^(1/d)
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
