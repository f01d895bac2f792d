def fast_greedy(model, prompt, n_new):
    # mistake: "fast" by truncating the context to the last 32 tokens, no cache (window)
    with torch.no_grad():
        ids = list(prompt); out = []
        for _ in range(n_new):
            t = int(model(torch.tensor([ids[-32:]]))[0, -1].argmax())
            ids.append(t); out.append(t)
        return out
