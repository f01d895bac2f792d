# right: select the real tokens with boolean indexing, then the plain biased statistics
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    real = x[mask.bool()]  # (N, C)
    return real.mean(dim=0), real.var(dim=0, unbiased=False)
