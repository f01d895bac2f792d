def cached_attention_step(q, K, V):
    # correct: einsum + log-sum-exp normalisation
    s = torch.einsum("bhqd,bhkd->bhqk", q, K) / math.sqrt(q.shape[-1])
    w = torch.exp(s - torch.logsumexp(s, dim=-1, keepdim=True))
    return torch.einsum("bhqk,bhkd->bhqd", w, V)
