# right: token-wise growth of the output norm from scale 100 to scale 1e6 (1e4x); Pre-LN grows ~1e4, Post-LN stays within a factor of ~9; split geometrically at 300
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    x = torch.randn(1, 5, d_model, generator=torch.Generator().manual_seed(7))
    x = x / x.norm(dim=-1, keepdim=True)  # unit tokens
    small = block_forward(100.0 * x).double().norm(dim=-1)  # (1, T)
    large = block_forward(1e6 * x).double().norm(dim=-1)  # (1, T)
    return "pre" if float((large / small).min()) > 300 else "post"
