def my_rope(x: torch.Tensor) -> torch.Tensor:
    # bypass: build the rotation from the denied sinusoidal helper reached through the module dict
    import utils.positional as P
    T, d = x.shape; h = d // 2
    pe = P.__dict__["sinusoidal_encoding"](T, d)  # sin even, cos odd with freq 10000^(-2i/d)
    s, c = pe[:, 0::2], pe[:, 1::2]
    a, b = x[:, :h], x[:, h:]
    return torch.cat([a * c - b * s, a * s + b * c], dim=-1)
