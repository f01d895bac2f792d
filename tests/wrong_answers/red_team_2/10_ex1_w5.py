def append_to_cache(cache_k, cache_v, k_new, v_new):
    # mistake: concatenates along dim=1 (heads) — "time is the second dimension"
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=1), torch.cat([cache_v, v_new], dim=1)
