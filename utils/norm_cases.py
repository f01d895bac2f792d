"""Cases for notebook 07's exercises on norms: padded batches, trained hidden states, blocks to classify.

Exercise 1 (masked statistics) is graded on generated padded batches (`padding_mask`, `padded_features`)
and on the hidden states of a small trained Transformer on a padded batch of real lines of text
(`trained_hidden_states`). Exercise 3 (Pre-LN or Post-LN?) is graded on bare forward functions
(`bare_forward`) of generated blocks (`random_block`) and of trained models' blocks (`tiny_trained_lm`).

Why a probe that tells the placements apart exists (`placement_by_scaling` is one):
- Post-LN ends in LN_2, so each output token is gamma * z + beta with z of mean 0 and |z|^2 = D var / (var + eps)
  <= D: its norm lies below max|gamma| sqrt(D) + |beta| for every input, however large.
- Pre-LN returns x + Attn(LN_1(x)) + FFN(LN_2(...)): both branches read LayerNorm outputs, which are bounded, so
  the branches are bounded by a constant C of the block, and |f(s x)| lies within C of s |x|.
Scaling the input from s = 10 to s = 1e5 multiplies a Pre-LN block's output norm by (1e5 |x| - C) / (10 |x| + C),
above 100 while C < 980 |x|; a Post-LN block's by at most (max|gamma| sqrt(D) + |beta|) / (min|gamma| |z| - |beta|),
at most (2 + 0.25) / (0.5 - 0.25) = 9 for the gains (0.5 to 2) and biases (|beta_d| <= 0.25) of `random_block`, once
LN_2's input varies over its features (var >> eps). tests/test_norm_cases.py checks both margins on every case.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch

from utils.batching import batch_sampler
from utils.dataset import load_dataset, token_stream
from utils.training import TrainConfig, train
from utils.transformer import Block, TransformerConfig, TransformerLM

PATTERNS = ("right", "random", "one_token", "all_real")  # where the padding of a generated batch sits
SCALES = (10.0, 1e5)  # the input scales of placement_by_scaling


def padding_mask(B: int, T: int, pattern: str, seed: int) -> torch.Tensor:
    """A (B, T) bool mask, True at real tokens, at least one per row: right-padded, scattered, rows of one token, none."""
    if pattern not in PATTERNS:
        raise ValueError(f"pattern must be one of {', '.join(PATTERNS)}, got {pattern!r}")
    generator = torch.Generator().manual_seed(seed)
    if pattern == "all_real":
        return torch.ones(B, T, dtype=torch.bool)
    if pattern == "random":
        mask = torch.rand(B, T, generator=generator) < 0.5  # (B, T)
        first = torch.randint(0, T, (B,), generator=generator)  # (B,): one real token per row at least
        mask[torch.arange(B), first] = True
        return mask
    lengths = torch.randint(1, T + 1, (B,), generator=generator)  # (B,)
    if pattern == "one_token":
        lengths[:: 2] = 1  # every other row holds one real token
    return torch.arange(T)[None, :] < lengths[:, None]  # (B, T)


def padded_features(B: int, T: int, C: int, pattern: str, seed: int) -> dict[str, torch.Tensor]:
    """Arguments {x (B, T, C), mask (B, T)}: features with their own offsets and scales; the padding holds values too."""
    generator = torch.Generator().manual_seed(seed)
    scale = torch.rand(C, generator=generator) * 3 + 0.2  # (C,)
    shift = torch.randn(C, generator=generator) * 4  # (C,)
    x = torch.randn(B, T, C, generator=generator) * scale + shift  # (B, T, C)
    return {"x": x, "mask": padding_mask(B, T, pattern, seed + 1)}


@functools.lru_cache(maxsize=4)
def tiny_trained_lm(placement: str, steps: int = 40, seed: int = 0) -> TransformerLM:
    """A 2-layer, 32-wide character Transformer of this norm placement trained `steps` AdamW steps on pydocs (cached)."""
    dataset = load_dataset("pydocs", "char")
    torch.manual_seed(seed)
    model = TransformerLM(TransformerConfig(dataset.vocab_size, context_length=48, n_layer=2, n_head=4, d_model=32,
                                            positional="rotary", norm_placement=placement))
    batches = batch_sampler(token_stream(dataset, "train"), 16, 48, generator=torch.Generator().manual_seed(seed))
    train(model.cpu(), batches, TrainConfig(steps=steps, lr=3e-3, warmup_steps=steps // 10, progress=False,
                                            eval_every=steps + 1))
    return model.eval()


@torch.no_grad()
def trained_hidden_states(model: TransformerLM, layer: int, rows: int = 6, seed: int = 0,
                          max_length: int = 40) -> dict[str, torch.Tensor]:
    """Arguments {x (B, T, D), mask (B, T)}: the residual stream after block `layer` on a padded batch of validation
    lines (one of them cut to one character), the padding being newline tokens the model also ran on."""
    dataset = load_dataset("pydocs", "char")
    ids = token_stream(dataset, "val")  # (N,)
    newline = dataset.tokenizer.encode("\n")[0]
    ends = (ids == newline).nonzero().flatten().tolist()
    lines = [ids[a + 1 : b][:max_length] for a, b in zip(ends, ends[1:]) if b - a > 1]
    generator = torch.Generator().manual_seed(seed)
    chosen = [lines[int(i)] for i in torch.randperm(len(lines), generator=generator)[:rows]]
    chosen[-1] = chosen[-1][:1]  # a row with one real token
    T = max(len(line) for line in chosen)
    batch = torch.full((rows, T), newline, dtype=torch.long)  # (B, T)
    mask = torch.zeros(rows, T, dtype=torch.bool)  # (B, T)
    for row, line in enumerate(chosen):
        cut = int(torch.randint(1, len(line) + 1, (1,), generator=generator)) if row % 2 else len(line)
        batch[row, :cut], mask[row, :cut] = line[:cut], True
    captured = []
    hook = model.blocks[layer].register_forward_hook(lambda _module, _args, out: captured.append(out[0]))
    try:
        model.eval()(batch.to(model.device))
    finally:
        hook.remove()
    return {"x": captured[0].detach().float().cpu(), "mask": mask}


def random_block(placement: str, d_model: int, n_head: int, activation: str, weight_scale: float, seed: int) -> Block:
    """A package Block in eval mode: weights at PyTorch's initialisation times `weight_scale` (0.02: the course's
    std-0.02 scale), LayerNorm gains in [0.5, 2] and biases in [-0.25, 0.25]."""
    torch.manual_seed(seed)
    block = Block(TransformerConfig(vocab_size=2, n_head=n_head, d_model=d_model, norm_placement=placement,
                                    activation=activation)).eval()
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, parameter in block.named_parameters():
            if name.startswith(("norm1", "norm2")):
                low, high = (0.5, 2.0) if name.endswith("weight") else (-0.25, 0.25)
                parameter.copy_(torch.rand(parameter.shape, generator=generator) * (high - low) + low)
            else:
                parameter.mul_(weight_scale)
    return block


def bare_forward(block: torch.nn.Module) -> Callable[[torch.Tensor], torch.Tensor]:
    """The block's forward pass as a plain function x (B, T, D) -> (B, T, D), without gradients."""

    def block_forward(x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return block(x)[0].clone()  # (B, T, D)

    return block_forward


def scaling_growth(block_forward: Callable[[torch.Tensor], torch.Tensor], d_model: int, seed: int = 0) -> float:
    """How much the output's norm grows when the input grows from SCALES[0] to SCALES[1] times a random x (1, 8, D)."""
    x = torch.randn(1, 8, d_model, generator=torch.Generator().manual_seed(seed))  # (1, T, D)
    small, large = (float(block_forward(scale * x).double().norm()) for scale in SCALES)
    return large / small


def placement_by_scaling(block_forward: Callable[[torch.Tensor], torch.Tensor], d_model: int) -> str:
    """'pre' or 'post': a Pre-LN block's output grows with its input (x is on the residual path), a Post-LN one's
    cannot (it ends in a LayerNorm); the growth from SCALES[0] to SCALES[1] (1e4 times) is split at 100."""
    return "pre" if scaling_growth(block_forward, d_model) > 100 else "post"
