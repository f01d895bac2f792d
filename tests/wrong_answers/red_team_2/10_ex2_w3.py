def cached_attention_step(q, K, V):
    # mistake: scale hard-coded to 1/sqrt(2) (the visible example's Dh) plus naive exp without max-subtraction
    s = q @ K.transpose(-2, -1) / 2.0
    w = torch.special.softmax(s, dim=-1)
    return w @ V
