def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # mistake: no cache at all, the whole history re-run for every token (right tokens, slow)
    ids = list(prompt)
    with torch.no_grad():
        for _ in range(n_new):
            ids.append(int(model(torch.tensor([ids]))[0, -1].argmax()))
    return ids[len(prompt):]
