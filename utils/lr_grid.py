"""Train the same small model over a grid of learning rates, with and without warm-up: Post-LN vs Pre-LN.

Each run starts from the same seed (same initial weights for a given placement, same
batches), trains with `utils.training.train` at a constant peak learning rate (after an
optional linear warm-up), and is scored by its mean training loss over the last steps.
A run whose loss became NaN or inf scores inf.

`last_layer_gradient_norms` measures the mechanism Xiong et al. (2020) found, without any
training: at initialisation (Xavier weights, as in the 2017 Transformer) the gradient of the
last block's weights is about sqrt(n_layer) times larger with Post-LN than with Pre-LN, so one
learning rate cannot suit every layer of a deep Post-LN model without a warm-up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import nn

from utils.batching import Batch
from utils.device import set_seed
from utils.i18n.text import tr
from utils.interface import LanguageModel
from utils.training import TrainConfig, TrainHistory, train


@dataclass
class GridRun:
    """One cell of the grid: settings, final loss and the whole history."""

    placement: str
    lr: float
    warmup_steps: int
    final_loss: float
    history: TrainHistory


def final_loss(history: TrainHistory, last: int = 10) -> float:
    """Mean training loss over the last `last` steps (inf if training diverged)."""
    if history.diverged or not history.train_loss:
        return math.inf
    tail = history.train_loss[-last:]
    value = sum(tail) / len(tail)
    return value if math.isfinite(value) else math.inf


def lr_warmup_grid(
    make_model: Callable[[str], LanguageModel],
    make_batches: Callable[[], Callable[[], Batch]],
    placements: Sequence[str],
    lrs: Sequence[float],
    warmups: Sequence[int],
    steps: int,
    seed: int = 0,
    grad_clip: float | None = 1.0,
) -> list[GridRun]:
    """Train make_model(placement) for every placement x lr x warm-up; batches come fresh from make_batches()."""
    if steps < 1 or not placements or not lrs or not warmups:
        raise ValueError("need steps >= 1 and at least one placement, learning rate and warm-up length")
    if any(w >= steps for w in warmups):
        raise ValueError(f"every warm-up must be shorter than the {steps} steps, got {list(warmups)}")
    from tqdm.auto import tqdm

    runs = []
    bar = tqdm(total=len(placements) * len(warmups) * len(lrs), desc=tr("learning-rate grid (runs)"))
    for placement in placements:
        for warmup in warmups:
            for lr in lrs:
                bar.set_postfix(placement=placement, warmup=warmup, lr=f"{lr:g}")
                set_seed(seed)
                model = make_model(placement)
                config = TrainConfig(steps=steps, lr=lr, warmup_steps=warmup, schedule="constant",
                                     grad_clip=grad_clip, progress=False)
                history = train(model, make_batches(), config)
                runs.append(GridRun(placement, lr, warmup, final_loss(history), history))
                bar.update()
    bar.close()
    return runs


def grid_curve(runs: Sequence[GridRun], placement: str, warmup_steps: int) -> tuple[list[float], list[float]]:
    """Learning rates (ascending) and final losses of the runs with this placement and warm-up."""
    picked = sorted((r for r in runs if r.placement == placement and r.warmup_steps == warmup_steps), key=lambda r: r.lr)
    if not picked:
        raise ValueError(f"no runs with placement {placement!r} and warm-up {warmup_steps}")
    return [r.lr for r in picked], [r.final_loss for r in picked]


def xavier_initialise(model: nn.Module) -> nn.Module:
    """Re-initialise every Linear weight with Xavier-uniform and zero bias, and embeddings with std d^-1/2 (the 2017 recipe)."""
    for module in model.modules():
        if isinstance(module, nn.Linear):
            nn.init.xavier_uniform_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=module.weight.shape[1] ** -0.5)
    return model


def ffn_gradient_norms(model: LanguageModel, x: torch.Tensor, y: torch.Tensor) -> list[float]:
    """Gradient norm of each block's FFN output weight (W_2) after one backward pass of the loss on (x, y)."""
    blocks = getattr(model, "blocks", None)
    if not blocks:
        raise ValueError(f"{type(model).__name__} has no `blocks` with an `ffn.down` layer")
    model.zero_grad()
    model.loss(x, y).backward()
    return [float(block.ffn.down.weight.grad.norm()) for block in blocks]


def ends_in_layernorm(model: nn.Module) -> bool:
    """True when what the model's lm_head reads is the output of its last LayerNorm call (run on a random batch)."""
    norm_outputs, head_inputs = [], []
    hooks = [module.register_forward_hook(lambda _module, _args, out: norm_outputs.append(out))
             for module in model.modules() if isinstance(module, nn.LayerNorm)]
    hooks.append(model.lm_head.register_forward_hook(lambda _module, args, _out: head_inputs.append(args[0])))
    tokens = torch.randint(0, model.config.vocab_size, (2, 16), generator=torch.Generator().manual_seed(0))  # (B, T)
    was_training = model.training
    try:
        with torch.no_grad():
            model.eval()(tokens.to(next(model.parameters()).device))
    finally:
        model.train(was_training)
        for hook in hooks:
            hook.remove()
    return bool(norm_outputs) and torch.equal(norm_outputs[-1], head_inputs[-1])
