import numpy as np


def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # correct: NumPy in float64, returned as a float64 tensor
    pos = np.arange(T, dtype=np.float64)[:, None]
    angles = pos / np.power(10000.0, np.arange(0, d, 2, dtype=np.float64) / d)[None, :]
    pe = np.empty((T, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angles), np.cos(angles)
    return torch.from_numpy(pe)
