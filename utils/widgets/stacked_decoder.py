"""Several TransformerLMs of one shape decoding together: one batched matrix product per projection for all of them.

The mask grid (notebook 08's widget) samples from two cached models at every keystroke. At its sizes a
model step is some forty tiny operations, each costing more in dispatch than in arithmetic, so two models
cost two steps. Here the models' weights are stacked on a leading model axis (M) and each projection is
one torch.baddbmm over it: two models cost about one step. It is the same computation as
TransformerLM.step with a KV cache (pre-LN blocks, cached keys and values, one new token per step); the
prefix itself runs through each model's own step(). tests/test_stacked_decoder.py holds the logits equal
to each model's, and tests/test_widget_mask.py the samples drawn from them.

Only what the widget needs is covered: causal, cached, pre-LN models with no positions or rotary ones and
as many key/value heads as query heads. `unsupported_reason` says why any other set of models must take
the one-model-at-a-time path.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import torch.nn.functional as F
from torch import nn

from utils.positional import apply_rotary
from utils.transformer import TransformerLM

SUPPORTED_POSITIONS = ("none", "rotary")  # neither adds anything to the embeddings; rotary turns q and k


def unsupported_reason(models: Sequence[TransformerLM]) -> str | None:
    """Why these models cannot decode together here (a sentence), or None if they can."""
    if len(models) < 2:
        return "fewer than two models: nothing to stack"
    config = models[0].config
    for model in models:
        if model.config != config:
            return f"the models differ in shape: {model.config} against {config}"
        if not (model.config.causal and model.use_kv_cache):
            return "a model without the causal mask or without its KV cache re-runs its history: no cache to share"
        if model.training:
            return "a model is in training mode (its dropout would act here and not in step()): call eval() first"
    if len({(p.device, p.dtype) for p in (next(m.parameters()) for m in models)}) > 1:
        return "the models' weights live on different devices or have different dtypes"
    if config.positional not in SUPPORTED_POSITIONS:
        return f"positional {config.positional!r} is not covered (only {', '.join(SUPPORTED_POSITIONS)})"
    if config.norm_placement != "pre":
        return "Post-LN blocks are not covered (only Pre-LN)"
    if config.n_kv_head not in (None, config.n_head):
        return "grouped-query attention is not covered"
    return None


def _stack(tensors: list[torch.Tensor]) -> torch.Tensor:
    """The models' copies of one weight on a new leading axis: M x (...) -> (M, ...)."""
    return torch.stack([t.detach() for t in tensors])  # (M, ...)


class StackedDecoder:
    """M cached TransformerLMs of one config, fed one new token each per step: logits (M, N, V) per step."""

    def __init__(self, models: Sequence[TransformerLM]) -> None:
        reason = unsupported_reason(models)
        if reason:
            raise ValueError(f"these models cannot decode together: {reason}")
        self.models = list(models)
        config = self.models[0].config
        self.n_models, self.n_head, self.d_model = len(self.models), config.n_head, config.d_model
        self.d_head = self.d_model // self.n_head
        self.rotary = config.positional == "rotary"
        self.embedding = _stack([m.token_embedding.weight for m in self.models])  # (M, V, D)
        self.layers = [self._layer_weights(i) for i in range(config.n_layer)]
        self.final_norm = self._norm([m.final_norm for m in self.models])
        self.head = _stack([m.lm_head.weight.T for m in self.models])  # (M, D, V)
        self.keys: list[torch.Tensor] = []  # per layer (M*N, H, capacity, Dh)
        self.values: list[torch.Tensor] = []
        self.position = 0  # positions cached so far

    @staticmethod
    def _norm(norms: list[nn.LayerNorm]) -> tuple[torch.Tensor, torch.Tensor, float]:
        """A LayerNorm per model as (weight (M, 1, D), bias (M, 1, D), eps)."""
        return _stack([n.weight for n in norms])[:, None], _stack([n.bias for n in norms])[:, None], norms[0].eps

    def _layer_weights(self, index: int) -> dict[str, object]:
        """Block `index` of every model: matrices (M, in, out), biases (M, 1, out), q, k and v side by side."""
        blocks = [m.blocks[index] for m in self.models]
        attention = [b.attention for b in blocks]
        return {
            "norm1": self._norm([b.norm1 for b in blocks]),
            "qkv": _stack([torch.cat([a.q_proj.weight, a.k_proj.weight, a.v_proj.weight]).T for a in attention]),  # (M, D, 3D)
            "qkv_bias": _stack([torch.cat([a.q_proj.bias, a.k_proj.bias, a.v_proj.bias]) for a in attention])[:, None],
            "out": _stack([a.out_proj.weight.T for a in attention]), "out_bias": _stack([a.out_proj.bias for a in attention])[:, None],
            "norm2": self._norm([b.norm2 for b in blocks]),
            "up": _stack([b.ffn.up.weight.T for b in blocks]), "up_bias": _stack([b.ffn.up.bias for b in blocks])[:, None],
            "down": _stack([b.ffn.down.weight.T for b in blocks]), "down_bias": _stack([b.ffn.down.bias for b in blocks])[:, None],
            "activation": blocks[0].ffn.activation,  # GELU or ReLU: no weights
        }

    @torch.no_grad()
    def start(self, prefix: torch.Tensor, capacity: int) -> torch.Tensor:
        """Run prefix (N, P) through each model's own step(); keep room for `capacity` positions; logits (M, N, V)."""
        N, P = prefix.shape
        if capacity < P:
            raise ValueError(f"capacity ({capacity}) must hold at least the prefix's {P} tokens")
        logits = []
        self.keys, self.values = [], []
        for layer in range(len(self.layers)):
            self.keys.append(prefix.new_zeros(self.n_models * N, self.n_head, capacity, self.d_head, dtype=self.embedding.dtype))
            self.values.append(torch.zeros_like(self.keys[-1]))
        for m, model in enumerate(self.models):
            model_logits, state = model.step(prefix, model.start_state(N))  # (N, V)
            logits.append(model_logits)
            for layer, cache in enumerate(state.caches):
                self.keys[layer][m * N : (m + 1) * N, :, :P] = cache.k  # (N, H, P, Dh)
                self.values[layer][m * N : (m + 1) * N, :, :P] = cache.v
        self.position = P
        return torch.stack(logits)  # (M, N, V)

    @torch.no_grad()
    def step(self, new_ids: torch.Tensor) -> torch.Tensor:
        """Feed one new token per model and row, new_ids (M, N); logits of the next token (M, N, V)."""
        self.models[0].validate_input(new_ids)  # (M, N) read as (B, T): an integer matrix of ids in the vocabulary
        M, N = new_ids.shape
        if M != self.n_models or not self.keys or self.position >= self.keys[0].shape[2]:
            raise ValueError(f"step() needs ({self.n_models}, N) ids after start(), within the capacity given there")
        pos = self.position
        x = self.embedding[torch.arange(M, device=new_ids.device)[:, None], new_ids]  # (M, N, D)
        angles = self.models[0]._rotary_angles(1, pos, x.device) if self.rotary else None  # each (1, Dh/2)
        for layer, weights in enumerate(self.layers):
            h = _layer_norm(x, *weights["norm1"])  # (M, N, D)
            qkv = torch.baddbmm(weights["qkv_bias"], h, weights["qkv"])  # (M, N, 3D)
            q, k, v = qkv.view(M * N, 3, self.n_head, 1, self.d_head).unbind(1)  # each (M*N, H, 1, Dh)
            if angles is not None:
                q, k = apply_rotary(q, *angles), apply_rotary(k, *angles)  # (M*N, H, 1, Dh) each
            self.keys[layer][:, :, pos : pos + 1] = k
            self.values[layer][:, :, pos : pos + 1] = v
            attended = F.scaled_dot_product_attention(  # one query sees every cached key: no mask needed
                q, self.keys[layer][:, :, : pos + 1], self.values[layer][:, :, : pos + 1])  # (M*N, H, 1, Dh)
            x = x + torch.baddbmm(weights["out_bias"], attended.reshape(M, N, self.d_model), weights["out"])  # (M, N, D)
            h = _layer_norm(x, *weights["norm2"])
            hidden = weights["activation"](torch.baddbmm(weights["up_bias"], h, weights["up"]))  # (M, N, F)
            x = x + torch.baddbmm(weights["down_bias"], hidden, weights["down"])  # (M, N, D)
        self.position = pos + 1
        return torch.bmm(_layer_norm(x, *self.final_norm), self.head)  # (M, N, V)


def _layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    """LayerNorm over the last axis with each model's own weight and bias: x (M, N, D) -> (M, N, D)."""
    return torch.addcmul(bias, F.layer_norm(x, x.shape[-1:], eps=eps), weight)


__all__ = ["StackedDecoder", "SUPPORTED_POSITIONS", "unsupported_reason"]
