# mistake: only the mean fixed (pooled over all real tokens); the variance still squares (0 - mean) at every padding position
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    lengths = weights.sum(dim=1)  # (B, 1)
    mean = (x * weights).sum(dim=(0, 1)) / lengths.sum()  # (C,)
    variance = ((x * weights - mean) ** 2).sum(dim=(0, 1)) / lengths.sum()  # (C,)
    return mean, variance
