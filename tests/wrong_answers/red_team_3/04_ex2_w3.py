# mistake: rewrites the step with an in-place clip (right), but drops the "p.grad = None" at the start, so gradients
# accumulate from one call to the next: from the second step on it applies the sum of the earlier clipped gradient and
# the new one (a momentum it was not asked for). The visible one-step checks use a fresh model each time and section 4's
# run stays bounded because of the clip; several steps in a row compared with a correct step expose it.
def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:
    """The colleague's step with its bug fixed: SGD on the gradient clipped to global norm max_norm; (loss, norm before)."""
    parameters = [p for p in model.parameters() if p.requires_grad]
    loss = model.loss(x, y)
    loss.backward()
    grads = [p.grad for p in parameters]
    norm = torch.sqrt(sum((g.double() ** 2).sum() for g in grads)).item()
    if norm > max_norm:
        for g in grads:
            g.mul_(max_norm / norm)  # in place: p.grad itself is scaled
    with torch.no_grad():
        for p in parameters:
            p -= lr * p.grad
    return loss.item(), norm


BUGGY_LINE = "            g = g * (max_norm / norm)  # scale down to norm max_norm"
