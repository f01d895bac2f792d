def fast_greedy(model, prompt, n_new):
    # mistake: takes argmax over the whole logits tensor of the prefill (all positions) via model() then steps
    with torch.no_grad():
        logits = model(torch.tensor([prompt]))  # (1, T, V)
        state = model.start_state(1)
        _, state = model.step(torch.tensor([prompt]), state)
        t = int(logits[0].argmax()) % logits.shape[-1]; out = [t]
        for _ in range(n_new - 1):
            l, state = model.step(torch.tensor([[t]]), state)
            t = int(l[0].argmax()); out.append(t)
        return out
