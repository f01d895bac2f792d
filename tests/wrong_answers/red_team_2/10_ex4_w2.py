def fast_greedy(model, prompt, n_new):
    # mistake: after prefill, re-feeds the last prompt token before taking the first argmax (token fed twice)
    with torch.no_grad():
        state = model.start_state(1)
        _, state = model.step(torch.tensor([prompt]), state)
        tok = prompt[-1]; out = []
        for _ in range(n_new):
            logits, state = model.step(torch.tensor([[tok]]), state)
            tok = int(logits[0].argmax()); out.append(tok)
        return out
