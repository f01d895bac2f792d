# mistake: the variance is computed with the sequences' own means (within-sequence variance) plus the spread of the sequence means weighted per sequence, not per token
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    lengths = weights.sum(dim=1)  # (B, 1)
    N = lengths.sum()
    sequence_means = (x * weights).sum(dim=1) / lengths  # (B, C)
    mean = (sequence_means * lengths).sum(dim=0) / N  # (C,) pooled, right
    within = (((x - sequence_means[:, None]) * weights) ** 2).sum(dim=(0, 1)) / N  # (C,)
    between = ((sequence_means - mean) ** 2).mean(dim=0)  # (C,): should be weighted by lengths / N
    return mean, within + between
