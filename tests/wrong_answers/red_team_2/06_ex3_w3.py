def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    # mistake: wrong sign (rewards distance) -> heads look at the far past
    slopes = 2.0 ** (-8 * (torch.arange(n_heads, dtype=torch.float32) + 1) / n_heads)
    off = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).float()
    return slopes[:, None, None] * off
