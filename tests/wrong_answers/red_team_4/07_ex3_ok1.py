# right: one huge input (1e4 per feature); a Post-LN output ends in a LayerNorm, so each token's norm is at most max|gain| sqrt(D) + |bias| (about 2.25 sqrt(D)); a Pre-LN output keeps x (norm ~1e4 sqrt(D)) plus bounded branches
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    x = 1e4 * torch.randn(2, 6, d_model, generator=torch.Generator().manual_seed(1))
    per_feature = block_forward(x).double().norm(dim=-1) / d_model ** 0.5  # (B, T): output token norm per sqrt(D)
    return "pre" if float(per_feature.median()) > 100 else "post"
