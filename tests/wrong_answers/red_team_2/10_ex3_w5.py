def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # mistake: counts query heads too (Q, K, V cached: x3) ... scaled to KV heads
    return 3 * n_layer * n_kv_head * (d_model // n_head) * bytes_per_value
