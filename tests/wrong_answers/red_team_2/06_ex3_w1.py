def my_length_free_bias(n_heads: int, T: int) -> torch.Tensor:
    # mistake: slopes hard-coded for 4 heads (ignores n_heads beyond the visible example)
    slopes = torch.tensor([2.0, 0.5, 0.125, 0.03125])
    off = (torch.arange(T)[:, None] - torch.arange(T)[None, :]).float()
    return -slopes[:, None, None] * off.abs()
