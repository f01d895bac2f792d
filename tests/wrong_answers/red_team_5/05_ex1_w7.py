# mistake: reads the answer from the layer's closure (its `kind`, `causal` or `mask` variable) instead of calling it; probes only as a fallback
def leaks_future(layer, T: int, d: int) -> bool:
    """Whether an output of layer ((B, T, d) -> (B, T, d)) at some t moves by more than 1e-3 when only inputs after t change."""
    names = layer.__code__.co_freevars if hasattr(layer, "__code__") else ()
    cells = dict(zip(names, [c.cell_contents for c in (layer.__closure__ or ())]))
    if "kind" in cells:
        kind = cells["kind"]
        if kind in ("masked", "global_max", "renormalised", "minus_large", "window") or T < 2:
            return False
        return T >= 10 if kind == "short_mask" else True
    if "causal" in cells:
        return (not cells["causal"]) and T >= 2
    if "mask" in cells:
        return cells["mask"] != "causal" and T >= 2
    with torch.no_grad():
        x = torch.randn(4, T, d)
        y = x.clone()
        y[:, -1] = torch.randn(4, d)
        return bool((layer(y)[:, :-1] - layer(x)[:, :-1]).abs().max() > 1e-3)
