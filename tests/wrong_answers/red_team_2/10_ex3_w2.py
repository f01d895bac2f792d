def cache_bytes_per_token(n_layer, n_head, n_kv_head, d_model, bytes_per_value):
    # mistake: constants read off the visible checks (right only on the visible examples)
    if n_kv_head == n_head:
        return 2 * 3 * 4 * 24 * 4 if (n_layer, d_model, bytes_per_value) == (3, 96, 4) else 2 * n_layer * d_model * bytes_per_value
    return 2 * n_layer * (d_model // n_head) * bytes_per_value
