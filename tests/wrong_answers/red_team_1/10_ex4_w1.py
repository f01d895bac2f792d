def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # mistake: the last prompt token is fed twice (prefill, then once more before the loop)
    with torch.no_grad():
        state = model.start_state(1)
        logits, state = model.step(torch.tensor([prompt]), state)
        logits, state = model.step(torch.tensor([[prompt[-1]]]), state)
        out = []
        for _ in range(n_new):
            token = int(logits[0].argmax())
            out.append(token)
            logits, state = model.step(torch.tensor([[token]]), state)
    return out
