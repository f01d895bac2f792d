# mistake: exact-ish comparison with torch.allclose's default tolerance (~1e-5 relative) instead of the 1e-3 of the statement: any move above rounding counts as a leak
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    with torch.no_grad():
        x = torch.randn(4, T, d)
        base = layer(x)
        for t in range(T - 1):
            y = x.clone()
            y[:, t + 1:] = torch.randn(4, T - t - 1, d)
            if not torch.allclose(layer(y)[:, :t + 1], base[:, :t + 1]):
                return True
    return False
