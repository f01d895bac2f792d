# mistake: positions in bfloat16 ("it is only integers"): bfloat16 holds integers exactly only up to 256, so positions past 256 are rounded
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T).to(torch.bfloat16)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    frequencies = torch.exp(-math.log(10000.0) * (2 * (columns // 2)) / d)  # (1, d)
    angles = positions.float() * frequencies  # (T, d)
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
