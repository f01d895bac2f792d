def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # correct: no prefill call, the prompt fed token by token through the cache too (still one step per token)
    out: list[int] = []
    with torch.no_grad():
        state = model.start_state(1)
        for token in prompt:
            logits, state = model.step(torch.tensor([[token]]), state)
        for _ in range(n_new):
            out.append(int(logits.argmax(dim=-1)[0]))
            logits, state = model.step(torch.tensor([[out[-1]]]), state)
    return out
