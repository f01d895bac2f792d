def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):
    """Append k_new, v_new (B, H, T_new, Dh) along time to the cache (None when empty); return the new (K, V)."""
    # mistake: hard-coded batch size 1 (flattens to (H, T, Dh) and back with a leading 1)
    if cache_k is None:
        return k_new, v_new
    H, Dh = k_new.shape[1], k_new.shape[-1]
    K = torch.cat([cache_k.reshape(H, -1, Dh), k_new.reshape(H, -1, Dh)], dim=1).reshape(1, H, -1, Dh)
    V = torch.cat([cache_v.reshape(H, -1, Dh), v_new.reshape(H, -1, Dh)], dim=1).reshape(1, H, -1, Dh)
    return K, V
