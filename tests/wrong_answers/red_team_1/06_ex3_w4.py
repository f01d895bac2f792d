def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    """Additive bias (H, T, T) of the scores, a function of i - j only, that keeps each head local at any length."""
    # mistake: wrong sign, +m (i - j) rewards distance, so heads look far back
    slopes = 2.0 ** -torch.arange(n_heads, dtype=torch.float32)
    offsets = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).float()
    return slopes[:, None, None] * offsets
