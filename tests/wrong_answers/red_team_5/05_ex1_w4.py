# mistake: checks only that each output ignores the NEXT input (output t against input t+1), like the off-by-one mask; a layer whose early queries read far ahead slips through
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    with torch.no_grad():
        x = torch.randn(4, T, d)
        base = layer(x)
        y = x.clone()
        y[:, -1] = torch.randn(4, d)  # change the last input
        if T >= 2 and (layer(y)[:, T - 2] - base[:, T - 2]).abs().max() > 1e-3:
            return True
        for t in range(T - 2):
            y = x.clone()
            y[:, t + 1] = torch.randn(4, d)
            if (layer(y)[:, t] - base[:, t]).abs().max() > 1e-3:
                return True
    return False
