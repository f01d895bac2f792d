def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    # The colleague's windows started two places late ([2:]): row i ended at ids[i+1], the very token it predicts.
    # Row i must end at ids[i]: the window of the N tokens ids[i-N+1..i], pad_id where i-N+1 < 0.
    ids = [int(t) for t in ids]
    n = len(ids)
    X = torch.full((max(n - 1, 0), window), pad_id, dtype=torch.long)  # (n-1, N)
    for i in range(n - 1):
        context = ids[max(0, i - window + 1) : i + 1]  # at most N tokens, the newest is ids[i]
        X[i, window - len(context) :] = torch.tensor(context, dtype=torch.long)
    Y = torch.tensor(ids[1:], dtype=torch.long)  # (n-1,)
    return X, Y
