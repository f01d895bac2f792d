# mistake: when the norm exceeds the threshold it normalises the gradient to norm 1 (g / ||g||) instead of to max_norm
# (g * max_norm / ||g||): the threshold decides WHETHER to clip but not the length. Every visible check uses max_norm = 1
# (or 1e6, where nothing is clipped), so it cannot be told apart there; with max_norm = 0.5 or 5 the step is 2x too long
# or 5x too short.
def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:
    """The colleague's step with its bug fixed: SGD on the gradient clipped to global norm max_norm; (loss, norm before)."""
    parameters = [p for p in model.parameters() if p.requires_grad]
    for p in parameters:
        p.grad = None
    loss = model.loss(x, y)
    loss.backward()
    grads = [p.grad for p in parameters]
    norm = torch.sqrt(sum((g.double() ** 2).sum() for g in grads)).item()
    if norm > max_norm:
        for g in grads:
            g.div_(norm)  # unit length: the clipped direction
    with torch.no_grad():
        for p in parameters:
            p -= lr * p.grad
    return loss.item(), norm


BUGGY_LINE = "            g = g * (max_norm / norm)  # scale down to norm max_norm"
