# mistake: treats every model as a bigram table: it calls the model once on [[0, 1, ..., m-1]] (every id that occurs) to
# read a table of next-token log-probabilities, row a = log p(. | a), and scores each text from that table. One call,
# sums to 1 and is independent of the batch, so the visible checks pass; but an RNN or a Transformer reads the whole
# past (and the position), which a table of single-token contexts cannot represent, and the statement asks for one call
# on the (N, L) tensor of the texts.
def texts_log_prob(model, texts: list[list[int]], boundary: int) -> torch.Tensor:
    """log p(text) of each text, framed by the boundary on both sides, from one call of the model: shape (N,)."""
    m = max([boundary] + [max(t) for t in texts if t]) + 1
    table = torch.log_softmax(model(torch.arange(m)[None]).double()[0], dim=-1)  # (m, V): row a = log p(. | a)
    scores = []
    for text in texts:
        framed = [boundary] + list(text) + [boundary]
        scores.append(sum(float(table[a, b]) for a, b in zip(framed[:-1], framed[1:])))
    return torch.tensor(scores, dtype=torch.float32)
