# mistake: probes with uniform [0, 1) inputs (torch.rand) instead of standard normal ones: a leak is measured on other inputs than the statement's, and smaller ones
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    with torch.no_grad():
        x = torch.rand(1, T, d)
        base = layer(x)
        for t in range(T - 1):
            y = x.clone()
            y[:, t + 1:] = torch.rand(1, T - t - 1, d)
            if (layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max() > 1e-3:
                return True
    return False
