# mistake: looks only at the output just before the changed input (output T-2 when the last input is redrawn); a layer whose first query reads ahead slips through
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    if T < 2:
        return False
    with torch.no_grad():
        x = torch.randn(8, T, d)
        y = x.clone()
        y[:, -1] = torch.randn(8, d)
        return bool((layer(y)[:, T - 2] - layer(x)[:, T - 2]).abs().max() > 1e-3)
