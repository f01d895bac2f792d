def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # mistake: wrong convention, [sin of every pair | cos of every pair] instead of interleaved
    pos = torch.arange(T, dtype=torch.float32)[:, None]
    freq = 10000 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = pos * freq[None, :]
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=-1)
