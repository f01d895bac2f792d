# mistake: left-pads every text with boundary tokens to a fixed width of 32, so texts end in the same column. For a
# bigram table (and the visible position-drift model, since the width is fixed) the score is unchanged, but an RNN or a
# Transformer reads the run of extra boundaries (and sees the text at other positions): p(x_1 | . . . .) is not
# p(x_1 | .), so a correct grader must reject it on untrained RNNs/Transformers and on the trained RNN.
def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:
    """log p(text) of each text, framed by the boundary on both sides, from one call of the model: shape (N,)."""
    N = len(texts)
    width = max(32, max(len(t) for t in texts) + 2)  # one fixed rectangle: the same for a batch and for a text alone
    rows = torch.full((N, width), boundary, dtype=torch.long)
    for i, text in enumerate(texts):
        if text:
            rows[i, width - 1 - len(text) : width - 1] = torch.tensor(text)
    log_probs = torch.log_softmax(model(rows[:, :-1]).double(), dim=-1)  # (N, width - 1, V)
    picked = log_probs.gather(-1, rows[:, 1:, None]).squeeze(-1)  # (N, width - 1): predicts column t + 1
    lengths = torch.tensor([len(t) for t in texts])
    keep = torch.arange(width - 1)[None, :] >= (width - 2 - lengths)[:, None]  # the text's letters and its closing boundary
    return (picked * keep).sum(dim=1).float()
