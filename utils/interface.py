"""The one interface every model family implements: token ids (B, T) -> next-token logits (B, T, V).

Training (utils.training), evaluation (utils.evaluation) and sampling (utils.sampling) only
use what is defined here, so they work unchanged on n-gram, fixed-window, RNN and
Transformer models.

Conventions
    forward(idx)[:, t] scores the token that follows idx[:, t], given idx[:, :t+1].
    Logits may be log-probabilities (the n-gram model returns those); softmax of either is
    the next-token distribution. A log-probability of -inf means probability 0.
    context_length is the longest input `forward` accepts (None: any length).
    start_state()/step() generate incrementally; the default keeps the token history and
    re-runs forward on it, models with a hidden state or a KV cache override both.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from utils.i18n.text import tr

IGNORE_INDEX = -100
MODEL_REGISTRY: dict[str, type["LanguageModel"]] = {}


def register_model(cls: type["LanguageModel"]) -> type["LanguageModel"]:
    """Class decorator: make a model class loadable from checkpoints by its name."""
    MODEL_REGISTRY[cls.__name__] = cls
    return cls


class LanguageModel(nn.Module):
    """Base class of every language model in the course."""

    vocab_size: int
    context_length: int | None = None
    config: Any = None  # a dataclass instance: `type(model)(model.config)` rebuilds the model
    config_class: type | None = None  # the dataclass type of `config` (for checkpoints)

    def forward(self, idx: torch.Tensor) -> torch.Tensor:  # (B, T) -> (B, T, V)
        """Next-token logits (or log-probabilities) at every position."""
        raise NotImplementedError

    def validate_input(self, idx: torch.Tensor) -> None:
        """Raise a clear ValueError if `idx` is not a (B, T) integer tensor the model can read."""
        if not isinstance(idx, torch.Tensor):
            raise ValueError(tr("expected a torch.Tensor of token ids, got {type}", type=type(idx).__name__))
        if idx.dtype not in (torch.int64, torch.int32, torch.int16, torch.uint8):
            raise ValueError(tr("token ids must be an integer tensor (torch.long), got dtype {dtype}", dtype=idx.dtype))
        if idx.dim() != 2:
            raise ValueError(tr("expected token ids of shape (B, T), got shape {shape}", shape=tuple(idx.shape)))
        if idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= self.vocab_size):
            raise ValueError(tr("token ids must lie in [0, {vocab}), got min {low}, max {high}", vocab=self.vocab_size,
                                low=int(idx.min()), high=int(idx.max())))
        if self.context_length is not None and idx.shape[1] > self.context_length:
            raise ValueError(tr("input of length {length} is longer than the model's context of {context} tokens; crop it "
                                "to the last {context} tokens", length=idx.shape[1], context=self.context_length))

    def loss(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        """Mean cross-entropy of `targets` (B, T) given `idx` (B, T); IGNORE_INDEX targets are skipped."""
        if targets.shape != idx.shape:
            raise ValueError(tr("targets must have the shape of the inputs {expected}, got {shape}", expected=tuple(idx.shape),
                                shape=tuple(targets.shape)))
        logits = self(idx)  # (B, T, V)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), targets.reshape(-1), ignore_index=IGNORE_INDEX)

    def start_state(self, batch_size: int = 1) -> Any:
        """State for incremental generation (default: no tokens seen yet)."""
        return None

    def step(self, new_idx: torch.Tensor, state: Any) -> tuple[torch.Tensor, Any]:
        """Feed new tokens (B, T'); return logits for the token after the last one (B, V) and the new state."""
        history = new_idx if state is None else torch.cat([state, new_idx], dim=1)  # (B, T_hist)
        if self.context_length is not None:
            history = history[:, -self.context_length :]
        logits = self(history)[:, -1, :]  # (B, V)
        return logits, history

    @property
    def device(self) -> torch.device:
        """Device of the model's parameters or buffers (CPU if it has none)."""
        for tensor in list(self.parameters()) + list(self.buffers()):
            return tensor.device
        return torch.device("cpu")

    def num_parameters(self) -> int:
        """Number of trainable parameters."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def config_dict(self) -> dict[str, Any]:
        """The model's configuration as plain data (for checkpoints)."""
        if self.config is None or not dataclasses.is_dataclass(self.config):
            raise ValueError(f"{type(self).__name__} has no dataclass `config`; it cannot be checkpointed")
        return dataclasses.asdict(self.config)
