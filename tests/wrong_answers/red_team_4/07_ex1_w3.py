# mistake: assumes the padding is always at the end of each row: takes the first mask.sum(1) positions of each row (wrong for scattered padding)
def masked_feature_statistics(x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-feature mean and biased variance over the positions where mask is True: (B, T, C), (B, T) -> (C,), (C,)."""
    lengths = mask.sum(dim=1).tolist()  # real tokens per row
    real = torch.cat([x[b, :n] for b, n in enumerate(lengths)], dim=0)  # (N, C)
    mean = real.mean(dim=0)
    variance = ((real - mean) ** 2).mean(dim=0)
    return mean, variance
