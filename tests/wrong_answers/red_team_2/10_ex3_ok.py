def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # correct, different order of operations
    d_head = d_model // n_head
    return int(n_layer * 2 * d_head * n_kv_head * bytes_per_value)
