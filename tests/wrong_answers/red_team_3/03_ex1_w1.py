# mistake: each row holds the right tokens but newest first (x_i, x_{i-1}, ...), left-padded with pad_id. The visible
# checks only measure WHICH rows read a token and the two pads of row 0, not the order of the columns; the window model
# gives each position its own slice of W1, and section 1's order (and sliding_windows at evaluation) is oldest first,
# so a model trained on these contexts reads held-out windows backwards.
def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    rows = []
    for i in range(len(ids) - 1):
        back = [ids[i - j] for j in range(min(window, i + 1))]  # the last tokens, walking back from ids[i]
        rows.append([pad_id] * (window - len(back)) + back)
    X = torch.tensor(rows, dtype=torch.long).reshape(-1, window)
    Y = torch.tensor(ids[1:], dtype=torch.long)
    return X, Y
