def cached_attention_step(q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    """Attention of one new query (B, H, 1, Dh) over the cached keys and values (B, H, n, Dh) -> (B, H, 1, Dh)."""
    # correct: log_softmax(...).exp() (stable), weights applied with matmul
    scores = torch.matmul(q, K.transpose(-1, -2)) * q.shape[-1] ** -0.5
    return torch.log_softmax(scores, dim=-1).exp() @ V
