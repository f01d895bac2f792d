# mistake: the rectangle is made with torch.zeros, so every text is opened by token 0 instead of by `boundary` (the
# closing boundary is the right id). The visible checks use boundary = 0, where this is invisible; with the boundary
# anywhere else in the vocabulary (as the hidden tests put it) p(x_1 | 0) replaces p(x_1 | boundary) and the texts no
# longer share one unit of probability.
def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:
    """log p(text) of each text, framed by the boundary on both sides, from one call of the model: shape (N,)."""
    N = len(texts)
    L = max(len(t) for t in texts) + 1
    inputs = torch.zeros(N, L, dtype=torch.long)  # column 0 opens the text
    targets = torch.zeros(N, L, dtype=torch.long)
    lengths = torch.tensor([len(t) for t in texts])
    for i, text in enumerate(texts):
        inputs[i, 1 : len(text) + 1] = torch.tensor(text, dtype=torch.long)
        targets[i, : len(text)] = torch.tensor(text, dtype=torch.long)
        targets[i, len(text)] = boundary  # the text ends when the model predicts the boundary
    log_probs = torch.log_softmax(model(inputs).double(), dim=-1)
    picked = log_probs.gather(-1, targets[..., None]).squeeze(-1)  # (N, L)
    keep = torch.arange(L)[None, :] <= lengths[:, None]
    return (picked * keep).sum(dim=1).float()
