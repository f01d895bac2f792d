def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):
    """Append k_new, v_new (B, H, T_new, Dh) along time to the cache (None when empty); return the new (K, V)."""
    # correct: torch.concat along the time axis counted from the front
    time = k_new.dim() - 2
    K = k_new if cache_k is None else torch.concat((cache_k, k_new), time)
    V = v_new if cache_v is None else torch.concat((cache_v, v_new), time)
    return K, V
