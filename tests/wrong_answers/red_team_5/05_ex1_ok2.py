# right: redraw one input position j at a time and look at every earlier output; the largest move over draws decides
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    torch.manual_seed(7)
    worst = 0.0
    with torch.no_grad():
        x = torch.randn(16, T, d)
        out = layer(x)
        for j in range(1, T):
            for changed in (slice(j, j + 1), slice(j, T)):
                y = x.clone()
                y[:, changed] = torch.randn_like(y[:, changed])
                worst = max(worst, (layer(y)[:, :j] - out[:, :j]).abs().max().item())
    return worst > 1e-3
