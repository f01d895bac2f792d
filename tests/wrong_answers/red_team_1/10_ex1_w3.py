def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):
    """Append k_new, v_new (B, H, T_new, Dh) along time to the cache (None when empty); return the new (K, V)."""
    # mistake: assumes one new position per call once the cache is filled (keeps only the last of T_new > 1)
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new[:, :, -1:]], dim=2), torch.cat([cache_v, v_new[:, :, -1:]], dim=2)
