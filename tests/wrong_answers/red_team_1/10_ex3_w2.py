def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # mistake: counts query heads, not key/value heads
    return 2 * n_layer * n_head * (d_model // n_head) * bytes_per_value
