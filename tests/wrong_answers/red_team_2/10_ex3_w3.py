def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # mistake: ignores n_kv_head unless it's 1 (treats GQA as MHA)
    kv = 1 if n_kv_head == 1 else n_head
    return 2 * n_layer * kv * (d_model // n_head) * bytes_per_value
