# mistake: measures on ONE sequence (ids[:1], "to save time") and bisects the scale until that single sequence keeps
# exactly its norm. A single sequence's ratio 25 steps back is a noisy estimate of the ratio on other sequences (it
# depends on which tokens it happens to hold), so the chosen scale overfits the sample; the exercise judges the matrix on
# other sequences from the same source, where one-sequence calibration lands outside [0.25, 4] far more often.
def recurrent_init(rnn: RNNLM, ids: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """A (H, H) W_hh for this RNN whose gradient, 25 steps back on sequences like ids, neither vanishes nor explodes."""
    ids = ids[:1]  # one sequence is enough to measure a ratio
    # A rotation times a scale s. Saturated tanh units shrink every step's factor below s, so s must exceed 1 by an
    # amount that depends on the inputs: measure the kept share on the sample and bisect s (in log space) until the
    # gradient 25 steps back keeps about its norm at the last step (share 1: the middle of [0.25, 4] on a log scale).
    H = rnn.cell.d_hidden
    q, r = torch.linalg.qr(torch.randn(H, H, generator=generator, dtype=torch.float64))
    rotation = (q * torch.sign(torch.diagonal(r))).float()  # (H, H), orthogonal
    probe = copy.deepcopy(rnn)
    x, y = ids[:, :-1], ids[:, 1:]

    def log_share(scale: float) -> float:
        with torch.no_grad():
            probe.cell.weight_hh.copy_(scale * rotation)
        norms = hidden_gradient_norms(probe, x, y)
        return math.log(max(float(norms[0] / norms[-1]), 1e-30))

    low, high = math.log(0.5), math.log(20.0)
    for _ in range(30):
        middle = (low + high) / 2
        if log_share(math.exp(middle)) < 0:
            low = middle
        else:
            high = middle
    return math.exp((low + high) / 2) * rotation
