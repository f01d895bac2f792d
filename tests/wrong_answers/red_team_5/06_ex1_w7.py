# mistake: uses the "linspace" frequencies of some libraries, 10000^(-i/(d/2 - 1)) for pair i (the last pair gets exactly 1/10000)
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float32)[:, None]
    columns = torch.arange(d)[None, :]
    pair = columns // 2
    frequencies = torch.exp(-math.log(10000.0) * pair / max(d // 2 - 1, 1))
    angles = positions * frequencies
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
