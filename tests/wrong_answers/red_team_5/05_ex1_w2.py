# mistake: probes only position 0: redraws every input after 0 and looks at output 0 only (misses a mask that breaks only at later rows)
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    if T < 2:
        return False
    with torch.no_grad():
        x = torch.randn(4, T, d)
        y = x.clone()
        y[:, 1:] = torch.randn(4, T - 1, d)  # the whole future of position 0
        return bool((layer(y)[:, 0] - layer(x)[:, 0]).abs().max() > 1e-3)
