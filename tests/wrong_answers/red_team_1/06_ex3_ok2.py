def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    """Additive bias (H, T, T) of the scores, a function of i - j only, that keeps each head local at any length."""
    # correct: hard local windows, head h sees the last h + 1 keys (0 inside the window, -inf outside)
    offsets = torch.arange(T)[:, None] - torch.arange(T)[None, :]  # (T, T): i - j
    windows = torch.arange(1, n_heads + 1)[:, None, None]  # (H, 1, 1)
    inside = (offsets[None] >= 0) & (offsets[None] < windows)
    return torch.zeros(n_heads, T, T).masked_fill(~inside, float("-inf"))
