# mistake: frames each text with TWO boundaries in front ('..emma.', like a trigram's padding). For a bigram table the
# extra boundary is never read, so the visible checks pass, but a model that reads the whole past (RNN, Transformer)
# now scores p(x_1 | . .) instead of section 2's p(x_1 | .), and every later token one position too late.
def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:
    """log p(text) of each text, framed by the boundary on both sides, from one call of the model: shape (N,)."""
    N, lead = len(texts), 2
    lengths = torch.tensor([len(t) for t in texts])
    L = int(lengths.max()) + lead + 1
    rows = torch.full((N, L), boundary, dtype=torch.long)  # right padding with the boundary
    for i, text in enumerate(texts):
        if text:
            rows[i, lead : lead + len(text)] = torch.tensor(text)
    log_probs = torch.log_softmax(model(rows[:, :-1]).double(), dim=-1)  # (N, L - 1, V)
    picked = log_probs.gather(-1, rows[:, 1:, None]).squeeze(-1)  # (N, L - 1)
    t = torch.arange(L - 1)[None, :]
    keep = (t >= lead - 1) & (t <= lead - 1 + lengths[:, None])  # the letters and the closing boundary
    return (picked * keep).sum(dim=1).float()
