# mistake: shrinks the window to the sequence when the sequence is shorter than the window (`window = min(window,
# len(ids))`), so X has fewer than N columns for short sequences: shape (n-1, n) instead of (n-1, N), and rows that
# cannot be stacked with other sequences' rows. The visible checks never use a sequence shorter than the window.
def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    window = min(window, len(ids))  # no point in a window longer than the sequence
    padded = torch.tensor([pad_id] * (window - 1) + list(ids), dtype=torch.long)
    X = padded.unfold(0, window, 1)[: len(ids) - 1]
    Y = torch.tensor(ids[1:], dtype=torch.long)
    return X, Y
