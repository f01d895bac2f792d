# mistake: a symptom fix of the colleague's code: its windows end at the target, so this drops their newest column (the
# target) and puts a pad in front. Nothing reads the target any more, and row i holds ids[i], but every row now holds
# only N-1 real tokens (column 0 is always pad_id): the window is one token short. The visible checks only ask that a
# row holds no token after its newest one and none more than N back; correct contexts hold the last N tokens.
def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    padded = torch.tensor([pad_id] * window + list(ids))  # (n+N,)
    X = padded.unfold(0, window, 1)[2:]  # (n-1, N): the colleague's windows, which end at the target
    X = torch.cat([torch.full((X.shape[0], 1), pad_id, dtype=X.dtype), X[:, :-1]], dim=1)  # drop the target column
    Y = torch.tensor(ids[1:])
    return X.long(), Y.long()
