def clipped_sgd_step(model, x, y, lr: float, max_norm: float) -> tuple[float, float]:
    """The colleague's step with its bug fixed: SGD on the gradient clipped to global norm max_norm; (loss, norm before)."""
    parameters = [p for p in model.parameters() if p.requires_grad]
    for p in parameters:
        p.grad = None
    loss = model.loss(x, y)
    loss.backward()
    norm = math.sqrt(sum(float((p.grad.double() ** 2).sum()) for p in parameters if p.grad is not None))
    scale = max_norm / norm if norm > max_norm else 1.0  # the colleague's `g = g * ...` only rebound a local name
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.sub_(lr * scale * p.grad)
    return loss.item(), norm


# BUGGY_LINE: the colleague's line that was wrong, copied as it is (a string)
BUGGY_LINE = "            g = g * (max_norm / norm)  # scale down to norm max_norm"
