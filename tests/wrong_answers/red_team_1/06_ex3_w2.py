def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    """Additive bias (H, T, T) of the scores, a function of i - j only, that keeps each head local at any length."""
    # mistake: slopes halve per head, 1, 1/2, 1/4, ...: right at 4 heads, not for 2 (ratio < 4) nor for many heads
    slopes = 2.0 ** -torch.arange(n_heads, dtype=torch.float32)  # (H,)
    offsets = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).float()  # (T, T)
    return -slopes[:, None, None] * offsets.abs()
