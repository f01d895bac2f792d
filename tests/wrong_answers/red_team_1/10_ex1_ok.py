def append_to_cache(cache_k, cache_v, k_new: torch.Tensor, v_new: torch.Tensor):
    """Append k_new, v_new (B, H, T_new, Dh) along time to the cache (None when empty); return the new (K, V)."""
    # correct, my own way: allocate the grown tensors and copy old and new rows into them
    if cache_k is None:
        return k_new.clone(), v_new.clone()
    n, m = cache_k.shape[-2], k_new.shape[-2]
    K = k_new.new_empty(*k_new.shape[:-2], n + m, k_new.shape[-1])
    V = v_new.new_empty(*v_new.shape[:-2], n + m, v_new.shape[-1])
    K[..., :n, :], K[..., n:, :] = cache_k, k_new
    V[..., :n, :], V[..., n:, :] = cache_v, v_new
    return K, V
