# mistake: returns a constant
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    return "pre"
