# mistake: changes only the LAST input and looks at all earlier outputs; a layer in which output t reads input t+1 but not the last one would pass as causal
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    if T < 2:
        return False
    with torch.no_grad():
        x = torch.randn(8, T, d)
        y = x.clone()
        y[:, -1] = torch.randn(8, d)
        return bool((layer(y)[:, :-1] - layer(x)[:, :-1]).abs().max() > 1e-3)
