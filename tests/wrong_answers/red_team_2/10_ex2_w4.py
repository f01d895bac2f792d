def cached_attention_step(q, K, V):
    # bypass: denied SDPA via torch._C._nn / torch.ops spelling
    return torch.ops.aten.scaled_dot_product_attention(q, K, V)
