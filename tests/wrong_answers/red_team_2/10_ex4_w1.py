def fast_greedy(model, prompt, n_new):
    # mistake: feeds the new token twice (once in the step, once appended again)
    with torch.no_grad():
        state = model.start_state(1)
        logits, state = model.step(torch.tensor([prompt]), state)
        out = []
        for _ in range(n_new):
            t = int(logits[0].argmax()); out.append(t)
            logits, state = model.step(torch.tensor([[t, t]]), state)
        return out
