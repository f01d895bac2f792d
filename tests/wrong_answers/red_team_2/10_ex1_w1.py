def append_to_cache(cache_k, cache_v, k_new, v_new):
    # mistake: concatenates along dim 2 for K but appends v_new to K too (copy-paste)
    if cache_k is None:
        return k_new, v_new
    return torch.cat([cache_k, k_new], dim=2), torch.cat([cache_v, k_new], dim=2)
