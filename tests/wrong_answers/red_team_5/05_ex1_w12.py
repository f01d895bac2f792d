# mistake: changes the future by a small nudge (+1e-2) instead of redrawing it, then compares with the 1e-3 of the statement: a weak leak moves the outputs by far less than a redraw would
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    with torch.no_grad():
        x = torch.randn(4, T, d)
        base = layer(x)
        for t in range(T - 1):
            y = x.clone()
            y[:, t + 1:] += 1e-2 * torch.randn(4, T - t - 1, d)
            if (layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max() > 1e-3:
                return True
    return False
