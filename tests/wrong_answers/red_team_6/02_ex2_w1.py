def add_k_log_probs(train: torch.Tensor, ids: torch.Tensor, vocab_size: int, n: int, k: float) -> torch.Tensor:
    """log p_add-k(ids[t] | its n-1 previous tokens), counted on train, for t = n-1 .. len(ids)-1: (len(ids) - n + 1,)."""
    weights = vocab_size ** torch.arange(n - 1, -1, -1)
    train_grams = (train.unfold(0, n, 1) * weights).sum(1)
    grams = (ids.unfold(0, n, 1) * weights).sum(1)
    ctx_w = vocab_size ** torch.arange(n - 2, -1, -1)
    train_ctx = (train.unfold(0, n - 1, 1) * ctx_w).sum(1)  # every (n-1)-gram of train
    ngram_counts = count_in(grams, train_grams)
    context_counts = count_in(grams // vocab_size, train_ctx)
    return ((ngram_counts + k) / (context_counts + k * vocab_size)).double().log()
