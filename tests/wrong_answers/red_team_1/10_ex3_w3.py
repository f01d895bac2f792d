def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # mistake: any sharing of key/value heads is treated as MQA (one KV head): wrong for GQA
    kv = n_head if n_kv_head == n_head else 1
    return 2 * n_layer * kv * (d_model // n_head) * bytes_per_value
