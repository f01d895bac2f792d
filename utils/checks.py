"""Checks for exercise cells: each failure says what was expected and what was found."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import torch

from utils.i18n.text import tr


class CheckFailed(AssertionError):
    """An exercise check failed; the message tells the student what to fix."""


def check(condition: bool, message: str) -> None:
    """Fail with `message` unless `condition` holds."""
    if not condition:
        raise CheckFailed(message)


def check_type(value: Any, expected: type | tuple[type, ...], name: str) -> None:
    """`value` must be an instance of `expected`."""
    if not isinstance(value, expected):
        wanted = expected.__name__ if isinstance(expected, type) else " or ".join(t.__name__ for t in expected)
        raise CheckFailed(f"{name}: expected a {wanted}, got {type(value).__name__}")


def check_shape(tensor: Any, expected: Sequence[int], name: str, labels: str | None = None) -> None:
    """`tensor` must be a torch.Tensor of shape `expected`; `labels` like '(B, T, V)' explain the axes."""
    check_type(tensor, torch.Tensor, name)
    if tuple(tensor.shape) != tuple(expected):
        axes = f" {labels}" if labels else ""
        raise CheckFailed(f"{name}: expected shape {tuple(expected)}{axes}, got {tuple(tensor.shape)}")


def check_close(actual: Any, expected: Any, name: str, atol: float = 1e-6, rtol: float = 1e-5) -> None:
    """`actual` must equal `expected` within tolerance (numbers or tensors)."""
    if isinstance(expected, torch.Tensor):
        check_type(actual, torch.Tensor, name)
        if actual.shape != expected.shape:
            raise CheckFailed(f"{name}: expected shape {tuple(expected.shape)}, got {tuple(actual.shape)}")
        actual_f, expected_f = actual.detach().double().cpu(), expected.detach().double().cpu()
        if not torch.allclose(actual_f, expected_f, atol=atol, rtol=rtol, equal_nan=False):
            worst = (actual_f - expected_f).abs().nan_to_num(math.inf).max().item()
            raise CheckFailed(f"{name}: values differ from the expected ones by up to {worst:.3g} (tolerance {atol:g})")
        return
    check_type(actual, (int, float), name)
    if not math.isclose(float(actual), float(expected), rel_tol=rtol, abs_tol=atol):
        raise CheckFailed(f"{name}: expected {expected:.6g}, got {float(actual):.6g}")


def check_distribution(probs: Any, name: str, atol: float = 1e-5) -> None:
    """`probs` must be non-negative and sum to 1 along the last dimension."""
    check_type(probs, torch.Tensor, name)
    if bool((probs < 0).any()) or not bool(torch.isfinite(probs).all()):
        raise CheckFailed(f"{name}: probabilities must be finite and non-negative")
    sums = probs.double().sum(dim=-1)
    worst = int((sums - 1).abs().argmax()) if sums.dim() else 0
    worst_sum = float(sums.flatten()[worst]) if sums.dim() else float(sums)
    if abs(worst_sum - 1) > atol:
        raise CheckFailed(f"{name}: probabilities must sum to 1, but one row sums to {worst_sum:.4f}")


def checks_passed(exercise: str) -> None:
    """Say that every visible check of `exercise` passed (the last line of its test cell's visible part)."""
    numbered = re.fullmatch(r"Exercise (\d+)", exercise.strip())  # the notebooks' English label, shared by both editions
    label = tr("Exercise {number}", number=int(numbered.group(1))) if numbered else exercise
    print(tr("✓ {exercise}: all visible checks passed", exercise=label))
