# mistake: a derivative test instead of the change the statement asks for: flags a leak when some d out[t] / d x[s], s > t, exceeds 1e-3 (a faint leak spread over many positions has tiny derivatives)
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    x = torch.randn(1, T, d, requires_grad=True)
    out = layer(x)
    for t in range(T - 1):
        for m in range(d):
            (g,) = torch.autograd.grad(out[0, t, m], x, retain_graph=True)
            if g[0, t + 1:].abs().max() > 1e-3:
                return True
    return False
