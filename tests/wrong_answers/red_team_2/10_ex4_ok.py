def fast_greedy(model, prompt, n_new):
    # correct: prefill once with the model's own cache (preallocated), one token per step
    with torch.no_grad():
        state = model.start_state(1, capacity=len(prompt) + n_new)
        logits, state = model.step(torch.tensor([list(prompt)]), state)
        out = []
        for i in range(n_new):
            t = int(torch.argmax(logits, dim=-1)[0]); out.append(t)
            if i + 1 < n_new:
                logits, state = model.step(torch.tensor([[t]]), state)
        return out
