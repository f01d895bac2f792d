# mistake: a shortcut for batches without padding returns x.var over (0, 1) with PyTorch's default unbiased=True (divide by N - 1); the visible checks never pass an unpadded batch
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    if bool(mask.all()):
        return x.mean(dim=(0, 1)), x.var(dim=(0, 1))
    weights = mask.to(x.dtype).unsqueeze(-1)  # (B, T, 1)
    n = weights.sum()
    mean = (x * weights).sum(dim=(0, 1)) / n  # (C,)
    variance = (((x - mean) * weights) ** 2).sum(dim=(0, 1)) / n  # (C,)
    return mean, variance
