def cached_attention_step(q, K, V):
    # mistake: softmax over the wrong axis (dim=-2, the query axis of size 1)
    s = q @ K.transpose(-2, -1) / math.sqrt(q.shape[-1])
    return torch.softmax(s, dim=-2) @ V
