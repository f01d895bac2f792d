def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:
    """log p(text) of each text, framed by the boundary on both sides, from one call of the model: shape (N,)."""
    # Right padding: row i = [b, x_1..x_n, pad...]; a causal model's score at position t depends only on columns <= t,
    # so the padding after a text cannot change it, and every text starts at position 0 (alone or in a batch).
    N = len(texts)
    lengths = torch.tensor([len(t) for t in texts], dtype=torch.long)  # (N,)
    L = int(lengths.max()) + 1 if N else 1
    inputs = torch.full((N, L), boundary, dtype=torch.long)  # (N, L): column 0 is the opening boundary
    targets = torch.full((N, L), boundary, dtype=torch.long)  # (N, L): text then the closing boundary
    for i, text in enumerate(texts):
        if text:
            inputs[i, 1 : len(text) + 1] = torch.tensor(text, dtype=torch.long)
            targets[i, : len(text)] = torch.tensor(text, dtype=torch.long)
    log_probs = torch.log_softmax(model(inputs).double(), dim=-1)  # (N, L, V)
    picked = log_probs.gather(-1, targets[..., None]).squeeze(-1)  # (N, L)
    keep = torch.arange(L)[None, :] <= lengths[:, None]  # positions 0..n: n letters and the closing boundary
    return torch.where(keep, picked, torch.zeros_like(picked)).sum(dim=1).float()  # (N,)
