# mistake: the right idea (growth from scale 10 to 1e5) but the threshold is put at 5000 ("a Pre-LN block grows 1e4 times"): large-weight Pre-LN blocks, whose bounded branches still count at scale 10, grow less
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    x = torch.randn(1, 8, d_model, generator=torch.Generator().manual_seed(0))
    growth = float(block_forward(1e5 * x).double().norm()) / float(block_forward(10 * x).double().norm())
    return "pre" if growth > 5000 else "post"
