# mistake: a cache keyed on d only, built once at T = 16 and sliced: longer sequences get a (16, d) table (or an index error)
_cache = {}


def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """The colleague's encoding with its bug fixed: (T, d), sin in the even columns and cos in the odd ones."""
    if d not in _cache:
        positions = torch.arange(16, dtype=torch.float32)[:, None]
        columns = torch.arange(d)[None, :]
        frequencies = torch.exp(-math.log(10000.0) * (2 * (columns // 2)) / d)
        angles = positions * frequencies
        _cache[d] = torch.where(columns % 2 == 0, torch.sin(angles), torch.cos(angles))
    return _cache[d][:T]


BUGGY_LINE = "frequencies = torch.exp(-math.log(10000.0) * columns / d)  # (1, d): 10000^(-j/d), slower to the right"
