# mistake: reads the answer from the callable's closure (the Block object and its pre_norm flag) instead of measuring
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    for cell in block_forward.__closure__ or ():
        block = cell.cell_contents
        if hasattr(block, "pre_norm"):
            return "pre" if block.pre_norm else "post"
    return "pre"
