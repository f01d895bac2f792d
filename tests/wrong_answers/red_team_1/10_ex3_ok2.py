def cache_bytes_per_token(n_layer: int, n_head: int, n_kv_head: int, d_model: int, bytes_per_value: int) -> int:
    """Bytes of keys and values cached per token of one sequence."""
    # correct: summed layer by layer, tensor by tensor
    d_head = d_model // n_head
    total = 0
    for _layer in range(n_layer):
        for _tensor in ("keys", "values"):
            total += n_kv_head * d_head * bytes_per_value
    return total
