# mistake: pooled mean right, but the variance is the unweighted average over sequences of each sequence's mean squared deviation from the pooled mean (every sequence counts the same, whatever its length)
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    lengths = weights.sum(dim=1)  # (B, 1)
    mean = (x * weights).sum(dim=(0, 1)) / lengths.sum()  # (C,)
    per_sequence = (((x - mean) * weights) ** 2).sum(dim=1) / lengths  # (B, C)
    return mean, per_sequence.mean(dim=0)
