def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # correct, my own way: all products first, the division by n_head last (exact when n_head divides d_model)
    return int(2 * n_layer * n_kv_head * d_model * bytes_per_value // n_head)
