def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    # correct: plain Python loops with math.cos / math.sin, into a new tensor
    T, d = x.shape
    h = d // 2
    out = x.clone()
    for t in range(T):
        for i in range(h):
            theta = t * 10000 ** (-2 * i / d)
            c, s = math.cos(theta), math.sin(theta)
            a, b = float(x[t, i]), float(x[t, i + h])
            out[t, i], out[t, i + h] = a * c - b * s, a * s + b * c
    return out
