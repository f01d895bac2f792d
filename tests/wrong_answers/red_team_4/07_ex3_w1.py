# mistake: the test the text warns about: "post if every output token has mean ~0 and std ~1" on one typical input (fails once the LayerNorm has gains and biases)
def placement_of(block_forward, d_model: int) -> str:
    """'pre' or 'post': the LayerNorm placement of a block known only by its forward function (B, T, D) -> (B, T, D)."""
    x = torch.randn(2, 8, d_model, generator=torch.Generator().manual_seed(0)) * 3 + 1
    y = block_forward(x)
    mean, std = y.mean(dim=-1), y.std(dim=-1, unbiased=False)
    return "post" if bool((mean.abs() < 0.05).all() and ((std - 1).abs() < 0.05).all()) else "pre"
