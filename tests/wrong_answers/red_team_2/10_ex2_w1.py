def cached_attention_step(q, K, V):
    # mistake: scale by sqrt(n) (number of cached positions) instead of sqrt(Dh)
    s = q @ K.transpose(-2, -1) / math.sqrt(K.shape[-2])
    s = s - s.amax(-1, keepdim=True)
    w = s.exp(); w = w / w.sum(-1, keepdim=True)
    return w @ V
