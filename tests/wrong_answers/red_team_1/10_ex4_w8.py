def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # mistake: own loop over the model's cached forward, but the position is not advanced after each new token
    with torch.no_grad():
        state = model.start_state(1)
        logits, _ = model._run(torch.tensor([prompt]), caches=state.caches, offset=0)
        position = len(prompt)
        out = []
        for _ in range(n_new):
            out.append(int(logits[0, -1].argmax()))
            logits, _ = model._run(torch.tensor([[out[-1]]]), caches=state.caches, offset=position)  # forgot position += 1
    return out
