# mistake: right encoding, but names the angles line as the bug (the fix was made there, by indexing the frequencies with the pair index)
def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    positions = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    columns = torch.arange(d)[None, :]  # (1, d)
    frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d)
    angles = positions * frequencies[:, 2 * (columns[0] // 2)]  # (T, d): pair i uses column 2i's frequency
    return torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))


BUGGY_LINE = "angles = positions * frequencies  # (T, d): the angle of every entry"
