"""Which position may attend to which: the mask patterns of encoder-only, decoder-only and encoder-decoder models.

Each pattern is a boolean matrix `allowed[i, j]`: True when query position i may read key
position j. `as_additive` turns it into the additive mask attention adds to its scores
(0 where allowed, -inf where not), the form `utils.attention` uses.
"""

from __future__ import annotations

import torch

from utils.i18n.text import mark


def _check_length(name: str, length: int) -> None:
    if not isinstance(length, int) or length < 1:
        raise ValueError(f"{name} must be a positive int, got {length!r}")


def bidirectional_pattern(length: int) -> torch.Tensor:
    """Encoder-only (BERT): every position reads every position. (T, T) bool."""
    _check_length("length", length)
    return torch.ones(length, length, dtype=torch.bool)


def causal_pattern(length: int) -> torch.Tensor:
    """Decoder-only (GPT): position i reads positions j <= i only. (T, T) bool."""
    _check_length("length", length)
    return torch.ones(length, length, dtype=torch.bool).tril()


def cross_pattern(target_length: int, source_length: int) -> torch.Tensor:
    """Encoder-decoder (T5) cross-attention: every output position reads the whole input. (T_out, T_in) bool."""
    _check_length("target_length", target_length)
    _check_length("source_length", source_length)
    return torch.ones(target_length, source_length, dtype=torch.bool)


def mask_patterns(source_length: int, target_length: int) -> dict[str, torch.Tensor]:
    """Every pattern to draw side by side, by English name (a title: tr(name)): (rows = queries, columns = keys) bool."""
    return {
        mark("encoder-only (BERT)"): bidirectional_pattern(source_length),
        mark("decoder-only (GPT)"): causal_pattern(target_length),
        mark("enc-dec: encoder self-attention"): bidirectional_pattern(source_length),
        mark("enc-dec: decoder self-attention"): causal_pattern(target_length),
        mark("enc-dec: cross-attention"): cross_pattern(target_length, source_length),
    }


def as_additive(allowed: torch.Tensor) -> torch.Tensor:
    """Boolean pattern -> additive float mask: 0 where allowed, -inf where not."""
    if allowed.dtype != torch.bool:
        raise ValueError(f"expected a boolean pattern, got dtype {allowed.dtype}")
    return torch.zeros(allowed.shape).masked_fill(~allowed, float("-inf"))
