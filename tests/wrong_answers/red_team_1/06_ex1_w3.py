from utils.transformer import sinusoidal_encoding as _pe_from_transformer  # bypass: the denied helper, imported from another module


def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    return _pe_from_transformer(T, d)
