from utils.attention import apply_rotary as _rotate  # bypass: the denied helpers, imported from other modules
from utils.transformer import rotary_cos_sin as _angles


def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    cos, sin = _angles(x.shape[0], x.shape[1])
    return _rotate(x, cos, sin)
