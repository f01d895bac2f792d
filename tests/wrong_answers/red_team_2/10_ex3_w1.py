def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # mistake: d_head = d_model / n_kv_head (divides by KV heads) -> equals 2*L*d_model*b
    return int(2 * n_layer * n_kv_head * (d_model // n_kv_head) * bytes_per_value)
