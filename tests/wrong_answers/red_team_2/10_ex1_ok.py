def append_to_cache(cache_k, cache_v, k_new, v_new):
    # correct: preallocate and copy
    if cache_k is None:
        return k_new.clone(), v_new.clone()
    n = cache_k.shape[2]
    K = cache_k.new_empty(*cache_k.shape[:2], n + k_new.shape[2], cache_k.shape[3])
    V = cache_v.new_empty(*cache_v.shape[:2], n + v_new.shape[2], cache_v.shape[3])
    K[:, :, :n] = cache_k; K[:, :, n:] = k_new
    V[:, :, :n] = cache_v; V[:, :, n:] = v_new
    return K, V
