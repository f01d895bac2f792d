def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # mistake: exponent uses the column index j (j/d) instead of the pair index 2i/d
    pos = torch.arange(T, dtype=torch.float32)[:, None]  # (T, 1)
    j = torch.arange(d, dtype=torch.float32)[None, :]  # (1, d)
    angles = pos / 10000 ** (j / d)  # (T, d)
    pe = torch.zeros(T, d)
    pe[:, 0::2] = torch.sin(angles[:, 0::2])
    pe[:, 1::2] = torch.cos(angles[:, 1::2])
    return pe
