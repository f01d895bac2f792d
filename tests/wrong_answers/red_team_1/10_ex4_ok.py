def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    # correct, my own way: a preallocated cache sized for the whole generation, topk(1) for the argmax,
    # and no step after the last token (it would only fill the cache)
    was_training = model.training
    model.eval()
    out: list[int] = []
    with torch.inference_mode():
        state = model.start_state(1, capacity=len(prompt) + n_new)
        logits, state = model.step(torch.tensor([prompt], dtype=torch.long), state)
        for i in range(n_new):
            out.append(int(torch.topk(logits[0], 1).indices[0]))
            if i + 1 < n_new:
                logits, state = model.step(torch.tensor([[out[-1]]], dtype=torch.long), state)
    model.train(was_training)
    return out
