# right: for every t redraw all inputs after t (several batches of standard normals) and compare outputs 0..t against a 1e-3 threshold
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    g = torch.Generator().manual_seed(12345)
    with torch.no_grad():
        for _ in range(3):
            x = torch.randn(8, T, d, generator=g)
            base = layer(x)
            for t in range(T - 1):
                y = x.clone()
                y[:, t + 1:] = torch.randn(8, T - t - 1, d, generator=g)
                if float((layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max()) > 1e-3:
                    return True
    return False
