"""One check for "two ways of computing the same thing agree": at the precision this device and policy give, and why.

    check_same(ours, model(idx), "the written-out recurrence and utils.rnn.RNNLM")

passes when the largest difference is within a tolerance derived from the precision of the matrix products
(utils.device.product_precision: float32 on a CPU, TF32 on a CUDA GPU whose cuDNN kernels use it, bf16 under
autocast or in the CPU tier) and fails with the worst difference, where it is, the tolerance and where that comes from.

The tolerance, relative to the scale of the result (by default its largest magnitude), has two parts:
    ROUNDING_UNITS * u * scale      u: the products' unit roundoff (2^-11 for TF32, 2^-8 for bf16, 0 for float32)
    ACCUMULATION_UNITS * 2^-24 * scale    float32's own rounding in sums, the same on every device
Measured on notebook 04's recurrence written out against nn.RNN (B 4, T 60, H 128; seeds 0-2; logits and states):
in the TF32 tier 0.67-1.34 u*scale, in the bf16 tier up to 0.57, in float32 3.4-6.3 units of 2^-24*scale; the factors
leave six times that or more, and a missing bias (0.013 on logits of 0.08) still fails in the bf16 tier.
The comparison itself is made in float64 on the CPU, so it adds no rounding of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from utils.device import FLOAT32_BITS, ProductPrecision, product_precision
from utils.i18n.text import tr

ROUNDING_UNITS = 8  # a few roundings of the factors reach the result; truncating (some TF32 units) errs twice as much
ACCUMULATION_UNITS = 128  # float32 sums: the error grows with the number of terms and of chained steps
FLOAT32_UNIT = 2.0 ** -24


class NotSameComputation(AssertionError):
    """Two computations that should agree differ by more than the device's precision allows."""


@dataclass(frozen=True)
class Tolerance:
    """The largest difference allowed between two computations of the same result, and where it comes from."""

    value: float
    reason: str


def tolerance_for(precision: ProductPrecision, scale: float) -> Tolerance:
    """The tolerance for results of magnitude `scale` computed with products at `precision`."""
    if not math.isfinite(scale) or scale < 0:
        raise ValueError(f"scale must be a finite magnitude >= 0, got {scale}")
    rounding = 0.0 if precision.mantissa_bits >= FLOAT32_BITS else ROUNDING_UNITS * precision.unit_roundoff
    accumulation = ACCUMULATION_UNITS * FLOAT32_UNIT
    value = (rounding + accumulation) * scale
    if rounding:
        reason = tr("{precision} products ({why}): ({rounding} x 2^-{bits} + {accumulation} x 2^-24) x scale {scale:.3g}",
                    precision=precision.name, why=precision.reason, rounding=ROUNDING_UNITS,
                    bits=precision.mantissa_bits + 1, accumulation=ACCUMULATION_UNITS, scale=scale)
    else:
        reason = tr("{why}: {accumulation} x 2^-24 x scale {scale:.3g}", why=precision.reason,
                    accumulation=ACCUMULATION_UNITS, scale=scale)
    return Tolerance(value, reason)


def _as_float64_cpu(value: torch.Tensor | float, what: str) -> torch.Tensor:
    """A detached float64 copy on the CPU (numbers become 0-d tensors)."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().to(torch.float64)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return torch.tensor(float(value), dtype=torch.float64)
    raise TypeError(tr("{what}: expected a tensor or a number, got {kind}", what=what, kind=type(value).__name__))


def _precision_of(actual: torch.Tensor | float, expected: torch.Tensor | float) -> ProductPrecision:
    """The lowest precision either side may have been computed at (its device and dtype, the policy, the tier)."""
    tensors = [t for t in (actual, expected) if isinstance(t, torch.Tensor)]
    if not tensors:
        return product_precision("cpu")
    candidates = [product_precision(t.device, t.dtype) for t in tensors]
    return min(candidates, key=lambda p: p.mantissa_bits)


def check_same(actual: torch.Tensor | float, expected: torch.Tensor | float, what: str,
               scale: float | None = None) -> float:
    """Assert that `actual` and `expected` are one computation done two ways; return the largest difference.

    `what` names the two ways ("the written-out recurrence and utils.rnn.RNNLM"). `scale` is the magnitude the
    rounding errors are relative to (default: the largest |expected|; give it when the result is a small difference
    of large quantities). Shapes must match exactly; NaN must be NaN on both sides, infinities equal.
    """
    ours, reference = _as_float64_cpu(actual, what), _as_float64_cpu(expected, what)
    if ours.shape != reference.shape:
        raise NotSameComputation(tr("{what} disagree: shapes {ours} and {reference}", what=what,
                                    ours=tuple(ours.shape), reference=tuple(reference.shape)))
    finite = torch.isfinite(reference)
    same_specials = torch.equal(torch.isnan(ours), torch.isnan(reference)) and torch.equal(
        ours[~finite & ~torch.isnan(reference)], reference[~finite & ~torch.isnan(reference)])
    if not same_specials or not bool(torch.isfinite(ours[finite]).all()):
        raise NotSameComputation(tr("{what} disagree: NaN or infinity in different places", what=what))
    if scale is None:
        scale = float(reference[finite].abs().max()) if bool(finite.any()) else 0.0
    tolerance = tolerance_for(_precision_of(actual, expected), scale)
    difference = (ours - reference).abs().where(finite, torch.zeros((), dtype=torch.float64))
    worst = float(difference.max()) if difference.numel() else 0.0
    if worst > tolerance.value:
        where = tuple(int(i) for i in torch.unravel_index(difference.argmax(), difference.shape))
        raise NotSameComputation(tr(
            "{what} disagree: the largest difference is {worst:.3g} (at index {where}: {ours:.6g} against {reference:.6g}), "
            "more than the tolerance {tolerance:.3g} = {reason}",
            what=what, worst=worst, where=where, ours=float(ours[where]), reference=float(reference[where]),
            tolerance=tolerance.value, reason=tolerance.reason))
    return worst


__all__ = ["NotSameComputation", "Tolerance", "check_same", "tolerance_for"]
