def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # mistake: for speed, only the last 64 prompt tokens are read (a window), then cached steps
    with torch.no_grad():
        logits, state = model.step(torch.tensor([prompt[-64:]]), model.start_state(1))
        out = []
        for _ in range(n_new):
            out.append(int(logits[0].argmax()))
            logits, state = model.step(torch.tensor([[out[-1]]]), state)
    return out
