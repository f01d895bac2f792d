def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    # mistake: slopes scaled by 1/T (reach grows with length)
    slopes = 2.0 ** -torch.arange(n_heads, dtype=torch.float32)
    off = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).float()
    return -(slopes * 64 / T)[:, None, None] * off
