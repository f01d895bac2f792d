# mistake: threshold tuned to the visible leaks (all >= 0.5): 0.1 calls a faint leak (a few hundredths) causal
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    with torch.no_grad():
        x = torch.randn(4, T, d)
        base = layer(x)
        for t in range(T - 1):
            y = x.clone()
            y[:, t + 1:] = torch.randn(4, T - t - 1, d)
            if (layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max() > 0.1:  # rounding is tiny, leaks are big
                return True
    return False
