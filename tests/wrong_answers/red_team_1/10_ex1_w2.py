def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):
    """Append k_new, v_new (B, H, T_new, Dh) along time to the cache (None when empty); return the new (K, V)."""
    # mistake: prepends, the new positions first
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=2), torch.cat([v_new, cache_v], dim=2)
