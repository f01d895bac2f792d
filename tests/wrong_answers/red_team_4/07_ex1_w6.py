# mistake: E[x^2] - E[x]^2 in float16 ("saves memory"): catastrophic cancellation and rounding for features with a large offset; returns float16
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    real = x[mask].half()  # (N, C)
    mean = real.mean(dim=0)
    variance = (real * real).mean(dim=0) - mean * mean
    return mean.float(), variance.float()
