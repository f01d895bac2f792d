def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # mistake: keeps the cache but feeds the whole history at every step (every old token fed again)
    ids = list(prompt)
    with torch.no_grad():
        state = model.start_state(1)
        for _ in range(n_new):
            logits, state = model.step(torch.tensor([ids]), state)
            ids.append(int(logits[0].argmax()))
    return ids[len(prompt):]
