def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # mistake: returns bits not bytes... no: returns a float (true division)
    return 2 * n_layer * n_kv_head * d_model / n_head * bytes_per_value
