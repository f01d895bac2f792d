"""Self-attention layers that may read the future, and a check whether one does (notebook 05, exercise 1).

A layer maps x (B, T, d) to (B, T, d). It *leaks* when some output at a position t changes by more than
`LEAK` when only inputs after t change (standard normal inputs). A causal layer may still move its earlier
outputs by float rounding (well below `ROUNDING`), e.g. when its softmax subtracts a row maximum taken over
the masked keys too. `layer_cases` builds the graded cases: hand-written layers (causal and leaking, some
only beyond a length) and a trained one-layer attention model with and without its mask.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import torch

from utils.attention import MultiHeadAttention
from utils.exercise_cases import Case
from utils.i18n.text import tr
from utils.positional import apply_rotary, rotary_cos_sin

LEAK = 1e-3  # an earlier output moving more than this is a leak
ROUNDING = 1e-5  # a causal layer's earlier outputs move less than this
CAUSAL_KINDS = ("masked", "global_max", "renormalised", "minus_large", "window")
LEAKING_KINDS = ("unmasked", "off_by_one", "softmax_then_mask", "short_mask", "weak_mask", "last_key_visible",
                 "first_query_unmasked", "sequence_mean", "skips_next_key", "first_pair_only")
SHORT_MASK_ROWS = 8  # "short_mask": a causal mask for the first 8 queries only


def _future(T: int) -> torch.Tensor:
    """(T, T) bool: True where key j lies after query i."""
    return torch.ones(T, T, dtype=torch.bool).triu(1)


def _weights(scores: torch.Tensor, kind: str) -> torch.Tensor:
    """Attention weights (B, T, T) of scores (B, T, T) for one kind of (possibly broken) masking."""
    T = scores.shape[-1]
    future = _future(T)
    if kind == "masked":
        return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    if kind == "global_max":  # the row maximum taken over every key, the masked ones too: causal up to rounding
        e = (scores - scores.amax(-1, keepdim=True)).exp().masked_fill(future, 0.0)
        return e / e.sum(-1, keepdim=True)
    if kind == "renormalised":  # softmax over every key, then the future zeroed and the rows renormalised
        p = torch.softmax(scores, dim=-1).masked_fill(future, 0.0)
        return p / p.sum(-1, keepdim=True)
    if kind == "minus_large":
        return torch.softmax(scores.masked_fill(future, -1e9), dim=-1)
    if kind == "window":  # causal, and only the last 4 keys
        far = torch.ones(T, T, dtype=torch.bool).tril(-4)
        return torch.softmax(scores.masked_fill(future | far, float("-inf")), dim=-1)
    if kind == "unmasked":
        return torch.softmax(scores, dim=-1)
    if kind == "off_by_one":  # each query also reads the next key
        return torch.softmax(scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(2), float("-inf")), dim=-1)
    if kind == "softmax_then_mask":  # the future zeroed after the softmax, not renormalised
        return torch.softmax(scores, dim=-1).masked_fill(future, 0.0)
    if kind == "short_mask":  # a mask made for 8 positions: later queries read everything
        rows = future.clone()
        rows[SHORT_MASK_ROWS:] = False
        return torch.softmax(scores.masked_fill(rows, float("-inf")), dim=-1)
    if kind == "weak_mask":  # -2 instead of -inf
        return torch.softmax(scores - 2.0 * future, dim=-1)
    if kind == "last_key_visible":  # every query reads the last key
        rows = future.clone()
        rows[:, -1] = False
        return torch.softmax(scores.masked_fill(rows, float("-inf")), dim=-1)
    if kind == "first_query_unmasked":  # query 0 reads every key
        rows = future.clone()
        rows[0] = False
        return torch.softmax(scores.masked_fill(rows, float("-inf")), dim=-1)
    if kind == "skips_next_key":  # each query also reads the key two after it, not the next one
        rows = future.clone()
        later = torch.arange(T - 2)
        rows[later, later + 2] = False
        return torch.softmax(scores.masked_fill(rows, float("-inf")), dim=-1)
    if kind == "first_pair_only":  # query 0 also reads key 1, and nothing else reads ahead
        rows = future.clone()
        rows[0, 1] = False
        return torch.softmax(scores.masked_fill(rows, float("-inf")), dim=-1)
    raise ValueError(f"unknown kind {kind!r}")


def leaks_by_construction(kind: str, T: int) -> bool:
    """Whether a layer of this kind reads the future at length T."""
    if kind in CAUSAL_KINDS or T < 2:
        return False
    if kind == "short_mask":
        return T >= SHORT_MASK_ROWS + 2  # query 8 must have a key after it
    if kind == "skips_next_key":
        return T >= 3  # query 0 must have a key two after it
    return True


def hand_layer(kind: str, d: int, seed: int) -> Callable[[torch.Tensor], torch.Tensor]:
    """One head of self-attention (seeded d x d projections, W_O included) whose masking is of this kind."""
    generator = torch.Generator().manual_seed(seed)
    w_q, w_k, w_v, w_o = (torch.randn(d, d, generator=generator) / math.sqrt(d) for _ in range(4))  # (d, d) each

    def layer(x: torch.Tensor) -> torch.Tensor:
        scores = (x @ w_q) @ (x @ w_k).transpose(-2, -1) / math.sqrt(d)  # (B, T, T)
        if kind == "sequence_mean":  # causal attention plus a little of the mean over the whole sequence: a faint leak
            return (_weights(scores, "masked") @ (x @ w_v) + 0.03 * x.mean(dim=1, keepdim=True)) @ w_o  # (B, T, d)
        return _weights(scores, kind) @ (x @ w_v) @ w_o  # (B, T, d)

    return layer


def module_layer(module: MultiHeadAttention, causal: bool) -> Callable[[torch.Tensor], torch.Tensor]:
    """The package's MultiHeadAttention as a layer x (B, T, d) -> (B, T, d), with or without its causal mask."""

    @torch.no_grad()
    def layer(x: torch.Tensor) -> torch.Tensor:
        return module(x, causal=causal)[0]

    return layer


def trained_layer(model, mask: str) -> Callable[[torch.Tensor], torch.Tensor]:
    """The attention of a trained OneLayerAttentionLM applied to x (B, T, d_model) in place of its embeddings;
    mask "causal", "none" or "weak" (-2 on the future)."""

    @torch.no_grad()
    def layer(x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        q = model._split(model.w_q(x))  # (B, H, T, Dh)
        k = q if model.w_k is None else model._split(model.w_k(x))  # (B, H, T, Dh)
        cos, sin = rotary_cos_sin(T, q.shape[-1])  # (T, Dh/2) each
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, H, T, T)
        future = _future(T)
        if mask == "causal":
            scores = scores.masked_fill(future, float("-inf"))
        elif mask == "weak":
            scores = scores - 2.0 * future
        out = (torch.softmax(scores, dim=-1) @ model._split(model.w_v(x))).transpose(1, 2).reshape(B, T, -1)
        return model.w_o(out)  # (B, T, d_model)

    return layer


def _case(layer: Callable, T: int, d: int, leaks: bool, label: str) -> Case:
    """A graded case: the arguments (layer, T, d) and the right answer in the context."""
    return Case({"layer": layer, "T": T, "d": d}, float(T * d), tr("{label}, T={T}, d={d}", label=label, T=T, d=d),
                {"leaks": leaks})


def layer_cases(lengths: Sequence[int], widths: Sequence[int], seed: int) -> list[Case]:
    """Every hand-written kind at every length, with a width drawn from `widths` and seeded weights."""
    cases, k = [], 0
    for kind in CAUSAL_KINDS + LEAKING_KINDS:
        for T in lengths:
            d = widths[(seed + k) % len(widths)]
            cases.append(_case(hand_layer(kind, d, seed + k), T, d, leaks_by_construction(kind, T),
                               tr("layer {k}", k=k)))
            k += 1
    return cases


def model_cases(model, lengths: Sequence[int], seed: int) -> list[Case]:
    """A trained OneLayerAttentionLM's attention (causal, unmasked, weak mask) and MultiHeadAttention with and
    without its causal mask, at each length."""
    d = model.config.d_model
    torch.manual_seed(seed)
    module = MultiHeadAttention(d, 2).eval()
    layers = [(trained_layer(model, "causal"), False), (trained_layer(model, "none"), True),
              (trained_layer(model, "weak"), True), (module_layer(module, True), False),
              (module_layer(module, False), True)]
    return [_case(layer, T, d, leaks and T >= 2, tr("model layer {k}", k=k))
            for k, (layer, leaks) in enumerate(layers) for T in lengths]


def judge_leak(case: Case, answer: object) -> str | None:
    """Why `answer` is not the right verdict for this case (None when it is)."""
    if isinstance(answer, torch.Tensor) and answer.numel() == 1 and answer.dtype == torch.bool:
        answer = bool(answer)
    if type(answer).__name__ == "bool_":  # numpy's bool
        answer = bool(answer)
    if not isinstance(answer, bool):
        return tr("return True or False, got {kind}", kind=type(answer).__name__)
    if answer == case.context["leaks"]:
        return None
    if answer:
        return tr("answered True for a causal layer: its earlier outputs move only by rounding when later inputs change")
    return tr("answered False for a layer that reads the future")


@torch.no_grad()
def largest_leak(layer: Callable[[torch.Tensor], torch.Tensor], T: int, d: int, seed: int = 0, batch: int = 4) -> float:
    """The largest change of an output at a position t when only the inputs after t are redrawn (every t)."""
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(batch, T, d, generator=generator)  # (B, T, d)
    base = layer(x)  # (B, T, d)
    largest = 0.0
    for t in range(T - 1):
        y = x.clone()
        y[:, t + 1:] = torch.randn(batch, T - t - 1, d, generator=generator)
        largest = max(largest, float((layer(y)[:, :t + 1] - base[:, :t + 1]).abs().max()))
    return largest


def leaks_future(layer: Callable[[torch.Tensor], torch.Tensor], T: int, d: int) -> bool:
    """Whether `layer` (B, T, d) -> (B, T, d) lets an output at some t change by more than LEAK when inputs after t change."""
    return largest_leak(layer, T, d) > LEAK


__all__ = ["LEAK", "ROUNDING", "CAUSAL_KINDS", "LEAKING_KINDS", "hand_layer", "module_layer", "trained_layer",
           "leaks_by_construction", "layer_cases", "model_cases", "judge_leak", "largest_leak", "leaks_future"]
