# right: the frequency line uses column j instead of the pair index 2*(j//2); fixed there
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    frequencies = torch.exp(-math.log(10000.0) * (2 * (columns // 2)) / d)  # (1, d): 10000^(-2i/d)
    angles = positions * frequencies  # (T, d)
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))  # (T, d)


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
