def append_to_cache(cache_k, cache_v, k_new, v_new):
    # mistake: new first, old last (prepend)
    if cache_k is None:
        return k_new, v_new
    return torch.cat([k_new, cache_k], dim=-2), torch.cat([v_new, cache_v], dim=-2)
