def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    # correct (own way): slopes geometric from 2 down to 2/64, linear penalty on |i - j|
    ratio = 64.0 ** (1.0 / max(n_heads - 1, 1))
    slopes = 2.0 / ratio ** torch.arange(n_heads, dtype=torch.float64)
    off = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).double().abs()
    return (-slopes[:, None, None] * off).float()
