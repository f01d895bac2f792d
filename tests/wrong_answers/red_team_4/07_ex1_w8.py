# mistake: E[x^2] - mean^2 in float32 (one-pass formula): cancellation when a feature's offset is large compared to its spread; can even be negative
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    n = weights.sum()
    mean = (x * weights).sum(dim=(0, 1)) / n
    variance = (x * x * weights).sum(dim=(0, 1)) / n - mean * mean
    return mean, variance
