# mistake: probes at a short length (at most 8) to save time, as if a layer that is causal at 8 were causal at every length
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    n = min(T, 8)
    with torch.no_grad():
        x = torch.randn(4, n, d)
        base = layer(x)
        for t in range(n - 1):
            y = x.clone()
            y[:, t + 1:] = torch.randn(4, n - t - 1, d)
            if (layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max() > 1e-3:
                return True
    return False
