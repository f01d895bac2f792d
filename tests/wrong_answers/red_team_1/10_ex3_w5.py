def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # mistake: the head size divided by the KV heads (d_model / n_kv_head)
    return 2 * n_layer * n_kv_head * (d_model // n_kv_head) * bytes_per_value
