# right: pooled mean over the real tokens, squares of deviations masked before summing
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    n = weights.sum()
    mean = (x * weights).sum(dim=(0, 1)) / n  # (C,)
    variance = (((x - mean) * weights) ** 2).sum(dim=(0, 1)) / n  # (C,)
    return mean, variance
