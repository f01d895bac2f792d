"""One training loop for every model family: AdamW, warm-up + cosine schedule, clipping, validation, budgets."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from utils.batching import Batch
from utils.device import training_autocast_dtype
from utils.interface import LanguageModel


@dataclass
class TrainConfig:
    """Settings of the training loop (defaults suit the small models of the course)."""

    steps: int = 1000  # optimisation steps (upper bound if a time budget stops earlier)
    lr: float = 3e-3  # peak learning rate
    weight_decay: float = 0.0  # AdamW weight decay on matrices (not on biases, norms, embeddings)
    betas: tuple[float, float] = (0.9, 0.99)  # AdamW betas
    warmup_steps: int = 0  # linear warm-up from 0 to lr
    schedule: str = "cosine"  # "cosine" (decay to min_lr_ratio * lr) or "constant"
    min_lr_ratio: float = 0.1  # final lr as a share of the peak, for the cosine schedule
    grad_clip: float | None = 1.0  # clip the global gradient norm to this (None: no clipping)
    eval_every: int = 100  # validation loss every this many steps (and at the end)
    eval_batches: int = 8  # random validation batches averaged per evaluation
    time_budget_s: float | None = None  # stop after this many seconds of training
    progress: bool = True  # show a tqdm progress bar (a widget in Jupyter)
    stop_on_divergence: bool = True  # stop when the loss becomes NaN or inf
    # opt-in speed switches (off by default, so every CPU gives the notebooks the same numbers):
    fused_optimizer: bool = False  # AdamW's fused kernel (torch >= 2.4 on CPU): fewer ops per step, last digits differ
    cpu_bf16: bool = False  # bf16 autocast on the CPU as well (worth it only on CPUs with bf16 matrix units)

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ValueError(f"steps must be at least 1, got {self.steps}")
        if self.lr <= 0:
            raise ValueError(f"lr must be positive, got {self.lr}")
        if self.schedule not in ("cosine", "constant"):
            raise ValueError(f"schedule must be 'cosine' or 'constant', got {self.schedule!r}")
        if self.warmup_steps < 0 or self.eval_every < 1:
            raise ValueError("warmup_steps must be >= 0 and eval_every >= 1")


@dataclass
class TrainHistory:
    """What happened during training, ready to plot."""

    steps: list[int] = field(default_factory=list)
    train_loss: list[float] = field(default_factory=list)
    grad_norm: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)
    val_steps: list[int] = field(default_factory=list)
    val_loss: list[float] = field(default_factory=list)
    seconds: float = 0.0
    tokens_seen: int = 0
    diverged: bool = False
    stop_reason: str = "steps"

    @property
    def final_val_loss(self) -> float:
        """The last validation loss (NaN if never evaluated)."""
        return self.val_loss[-1] if self.val_loss else math.nan

    def smoothed_train_loss(self, window: int = 20) -> list[float]:
        """Moving average of the training loss, for plotting."""
        out, running = [], []
        for value in self.train_loss:
            running.append(value)
            running = running[-window:]
            out.append(sum(running) / len(running))
        return out


def learning_rate(step: int, config: TrainConfig) -> float:
    """Learning rate at `step` (0-based): linear warm-up, then constant or cosine decay."""
    if step < config.warmup_steps:
        return config.lr * (step + 1) / config.warmup_steps
    if config.schedule == "constant":
        return config.lr
    progress = (step - config.warmup_steps) / max(1, config.steps - config.warmup_steps)
    cosine = 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
    return config.lr * (config.min_lr_ratio + (1 - config.min_lr_ratio) * cosine)


def make_optimizer(model: torch.nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    """AdamW with weight decay on matrices only."""
    decay = [p for p in model.parameters() if p.requires_grad and p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.requires_grad and p.dim() < 2]
    groups = [{"params": decay, "weight_decay": config.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    fused = {"fused": True} if config.fused_optimizer else {}
    return torch.optim.AdamW(groups, lr=config.lr, betas=config.betas, **fused)


@torch.no_grad()
def estimate_loss(model: LanguageModel, batches: Callable[[], Batch], num_batches: int) -> float:
    """Mean loss over `num_batches` batches from `batches`, in eval mode."""
    was_training = model.training
    model.eval()
    losses = []
    for _ in range(num_batches):
        x, y = batches()
        losses.append(float(model.loss(x.to(model.device), y.to(model.device))))
    model.train(was_training)
    return sum(losses) / len(losses)


def autocast_dtype(device: torch.device, cpu_bf16: bool = False) -> torch.dtype | None:
    """The reduced precision of the forward pass on `device`: bf16 on CUDA GPUs that support it, else None (fp32).

    The rule lives in utils.device (training_autocast_dtype, with the rest of the precision policy): bf16 keeps
    fp32's exponent range, so no loss scaling is needed; on CPU and Apple MPS the course's small models gain little,
    so they train in fp32, unless cpu_bf16=True (TrainConfig.cpu_bf16) or the CPU tier ($LM_PRECISION) is on.
    """
    return training_autocast_dtype(device, cpu_bf16)


def train(
    model: LanguageModel,
    train_batches: Callable[[], Batch],
    config: TrainConfig | None = None,
    val_batches: Callable[[], Batch] | None = None,
    optimizer: torch.optim.Optimizer | None = None,
    on_step: Callable[[int, float], None] | None = None,
) -> TrainHistory:
    """Train `model` on batches from `train_batches`; return the loss curves.

    Each step: batch -> loss -> backward -> clip -> AdamW step with the scheduled lr.
    The model stays on its device; batches are moved there. On CUDA (and in the CPU tier, $LM_PRECISION), bf16
    autocast is used (utils.device.training_autocast_dtype).
    Speed switches that change results slightly are opt-in fields of TrainConfig (fused_optimizer, cpu_bf16).
    """
    from tqdm.auto import tqdm

    config = config or TrainConfig()
    if not any(p.requires_grad for p in model.parameters()):
        raise ValueError(f"{type(model).__name__} has no trainable parameters; it is fitted, not trained")
    optimizer = optimizer or make_optimizer(model, config)
    device = model.device
    low_precision = autocast_dtype(device, config.cpu_bf16)
    history = TrainHistory()
    model.train()
    start = time.perf_counter()
    bar = tqdm(range(config.steps), desc=f"training {type(model).__name__}", disable=not config.progress)
    for step in bar:
        lr = learning_rate(step, config)
        for group in optimizer.param_groups:
            group["lr"] = lr
        x, y = train_batches()
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.autocast(device.type, dtype=low_precision or torch.bfloat16, enabled=low_precision is not None):
            loss = model.loss(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        max_norm = config.grad_clip if config.grad_clip is not None else math.inf
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm))
        optimizer.step()
        value = float(loss.detach())
        history.steps.append(step)
        history.train_loss.append(value)
        history.grad_norm.append(norm)
        history.lr.append(lr)
        history.tokens_seen += int(y.numel())
        if on_step is not None:
            on_step(step, value)
        if not math.isfinite(value) and config.stop_on_divergence:
            history.diverged, history.stop_reason = True, "diverged"
            break
        last = step == config.steps - 1
        out_of_time = config.time_budget_s is not None and time.perf_counter() - start > config.time_budget_s
        if val_batches is not None and ((step + 1) % config.eval_every == 0 or last or out_of_time):
            history.val_steps.append(step)
            history.val_loss.append(estimate_loss(model, val_batches, config.eval_batches))
            bar.set_postfix(train=f"{value:.3f}", val=f"{history.val_loss[-1]:.3f}")
        elif step % 10 == 0:
            bar.set_postfix(train=f"{value:.3f}")
        if out_of_time:
            history.stop_reason = "time budget"
            break
    bar.close()
    history.seconds = time.perf_counter() - start
    model.eval()
    return history
