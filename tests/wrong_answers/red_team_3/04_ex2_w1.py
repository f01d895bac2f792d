# mistake: the fix is right (the update uses the clipped gradient), but BUGGY_LINE names the update line
# `p -= lr * p.grad` instead of the line that is actually wrong, `g = g * (max_norm / norm)`, which rebinds a local
# name and never touches p.grad. The visible check only asks that BUGGY_LINE is some line of the colleague's code.
def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:
    """The colleague's step with its bug fixed: SGD on the gradient clipped to global norm max_norm; (loss, norm before)."""
    parameters = [p for p in model.parameters() if p.requires_grad]
    for p in parameters:
        p.grad = None  # no gradient left over from an earlier step
    loss = model.loss(x, y)
    loss.backward()
    grads = [p.grad for p in parameters]
    norm = torch.sqrt(sum((g.double() ** 2).sum() for g in grads)).item()  # the global norm, over all parameters
    factor = max_norm / norm if norm > max_norm else 1.0
    with torch.no_grad():
        for p in parameters:
            p -= lr * factor * p.grad  # the update must use the clipped gradient
    return loss.item(), norm


BUGGY_LINE = "            p -= lr * p.grad"
