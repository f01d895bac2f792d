# mistake: only the variance fixed (padding masked out of the squares); the mean is still the unweighted mean of the sequence means
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    lengths = weights.sum(dim=1)  # (B, 1)
    sequence_means = (x * weights).sum(dim=1) / lengths  # (B, C)
    mean = sequence_means.mean(dim=0)  # (C,)
    variance = (((x - mean) * weights) ** 2).sum(dim=(0, 1)) / lengths.sum()  # (C,)
    return mean, variance
