"""Reduced precision emulated on any CPU: matrix products whose float32 inputs are first rounded to fewer mantissa bits.

A CUDA GPU runs float32 matrix products in TF32 where a switch allows it (10 stored mantissa bits instead of 23)
and, under autocast, in bf16 (7 bits); a CPU has no TF32 and bf16 units only on some models, so notebooks tested
on a CPU never see those numbers. `ReducedPrecisionProducts` (a torch.overrides.TorchFunctionMode) rounds the float32
inputs of chosen families of matrix products to a mantissa, then lets the product run in float32, as TF32 and bf16
units do (float32 accumulation): the same rounded numbers on every CPU model, only the order of the sums differs.

Families, named after the library that runs them on a CUDA GPU (each has its own TF32 switch there):
    "cublas"  matmul (and @), mm, bmm, addmm, baddbmm, addbmm, einsum, tensordot, multi_dot, linear, bilinear,
              scaled_dot_product_attention (q, k and v are rounded; the weights between its two products are not)
    "cudnn"   conv1d/2d/3d and their transposes; the recurrent kernels behind nn.RNN, nn.GRU and nn.LSTM, written
              out step by step so the state is rounded at every step, as on the GPU (utils.emulate_rnn)
Rounding is to nearest, ties to even (bf16: torch's own float32 -> bfloat16 conversion); NVIDIA's documents describe
TF32 inputs both as rounded and as truncated (truncation errs up to twice as much: utils.precision_check allows
for it). Only the forward pass is rounded: gradients pass through the rounding unchanged (straight through), so the
products of a backward pass run in float32. Tensors that are not float32 (bf16 under autocast, float64) are left
as they are. torch keeps the stack of modes per thread: a mode covers the thread that entered it, no other.
"""

from __future__ import annotations

import threading

import torch
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode

from utils.emulate_rnn import RECURRENT_KERNELS, run_recurrent_kernel

FLOAT32_MANTISSA_BITS = 23
FAMILIES = ("cublas", "cudnn")

# which arguments of each product are its factors (rounded), by position and by keyword; biases and masks are added
# in float32 on the GPU and stay as they are. "*": every tensor argument (einsum's and multi_dot's operands).
_SELF_OTHER = ((0, "input"), (1, "other"))
_PRODUCTS: dict[object, tuple[str, tuple | str]] = {
    **{f: ("cublas", _SELF_OTHER) for f in (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__,
                                             torch.Tensor.__rmatmul__, torch.linalg.matmul)},
    **{f: ("cublas", ((0, "input"), (1, "mat2"))) for f in (torch.mm, torch.Tensor.mm, torch.bmm, torch.Tensor.bmm)},
    **{f: ("cublas", ((1, "mat1"), (2, "mat2"))) for f in (torch.addmm, torch.Tensor.addmm)},
    **{f: ("cublas", ((1, "batch1"), (2, "batch2"))) for f in (torch.baddbmm, torch.Tensor.baddbmm, torch.addbmm,
                                                                torch.Tensor.addbmm)},
    torch.einsum: ("cublas", "*"), torch.linalg.multi_dot: ("cublas", "*"),
    torch.tensordot: ("cublas", ((0, "a"), (1, "b"))),
    F.linear: ("cublas", ((0, "input"), (1, "weight"))),
    F.bilinear: ("cublas", ((0, "input1"), (1, "input2"), (2, "weight"))),
    F.scaled_dot_product_attention: ("cublas", ((0, "query"), (1, "key"), (2, "value"))),
    **{f: ("cudnn", ((0, "input"), (1, "weight"))) for f in (torch.conv1d, torch.conv2d, torch.conv3d,
                                                              torch.conv_transpose1d, torch.conv_transpose2d,
                                                              torch.conv_transpose3d)},
}


def round_mantissa(x: torch.Tensor, bits: int) -> torch.Tensor:
    """`x` (float32) rounded to `bits` stored mantissa bits (10: TF32, 7: bf16), to nearest, ties to even; same shape."""
    if not 0 <= bits <= FLOAT32_MANTISSA_BITS:
        raise ValueError(f"a float32 mantissa keeps 0 to {FLOAT32_MANTISSA_BITS} bits, got {bits}")
    if x.dtype != torch.float32:
        raise TypeError(f"round_mantissa rounds float32 tensors, got {x.dtype}")
    if bits == FLOAT32_MANTISSA_BITS:
        return x
    if bits == 7:
        return x.to(torch.bfloat16).to(torch.float32)  # bf16 is float32's top 16 bits, rounded to nearest even
    dropped = FLOAT32_MANTISSA_BITS - bits
    raw = x.contiguous().view(torch.int32)  # sign, exponent, mantissa as one integer
    lowest_kept = (raw >> dropped) & 1
    rounded = ((raw + (1 << (dropped - 1)) - 1 + lowest_kept) & ~((1 << dropped) - 1)).view(torch.float32)
    return torch.where(torch.isfinite(x), rounded, x)  # a carry past the largest float gives inf, as it should


def _round_straight_through(x: torch.Tensor, bits: int) -> torch.Tensor:
    """round_mantissa in the forward pass, the identity for gradients; non-float32 tensors unchanged."""
    if not isinstance(x, torch.Tensor) or x.dtype != torch.float32 or bits >= FLOAT32_MANTISSA_BITS:
        return x
    if not x.requires_grad:
        return round_mantissa(x, bits)
    return x + (round_mantissa(x.detach(), bits) - x.detach())


_active = threading.local()  # .stack: the ReducedPrecisionProducts modes this thread is inside, innermost last


class ReducedPrecisionProducts(TorchFunctionMode):
    """Within it, float32 matrix products of each family in `bits` run with their inputs rounded to that mantissa."""

    def __init__(self, bits: dict[str, int], name: str):
        super().__init__()
        unknown = set(bits) - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown product families {sorted(unknown)}: use {', '.join(FAMILIES)}")
        self.bits = {family: bits.get(family, FLOAT32_MANTISSA_BITS) for family in FAMILIES}
        self.name = name

    @property
    def lowest_bits(self) -> int:
        """The fewest mantissa bits any family keeps: the precision a comparison must allow for."""
        return min(self.bits.values())

    def __enter__(self) -> "ReducedPrecisionProducts":
        super().__enter__()
        _active.__dict__.setdefault("stack", []).append(self)
        return self

    def __exit__(self, *exc) -> None:
        _active.stack.remove(self)
        super().__exit__(*exc)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        try:
            kernel = RECURRENT_KERNELS.get(func)
            product = _PRODUCTS.get(func)
        except TypeError:  # an unhashable callable: not a product
            kernel = product = None
        if kernel is not None and self.bits["cudnn"] < FLOAT32_MANTISSA_BITS:
            bits = self.bits["cudnn"]
            return run_recurrent_kernel(kernel, args, lambda x: _round_straight_through(x, bits))
        if product is None or self.bits[product[0]] >= FLOAT32_MANTISSA_BITS:
            return func(*args, **kwargs)
        bits, factors = self.bits[product[0]], product[1]
        if factors == "*":
            args = tuple([_round_straight_through(t, bits) for t in a] if isinstance(a, (list, tuple))
                         else _round_straight_through(a, bits) for a in args)
        else:
            args = list(args)
            for position, keyword in factors:
                if position < len(args):
                    args[position] = _round_straight_through(args[position], bits)
                elif keyword in kwargs:
                    kwargs[keyword] = _round_straight_through(kwargs[keyword], bits)
        return func(*args, **kwargs)


def active_emulation() -> ReducedPrecisionProducts | None:
    """The innermost ReducedPrecisionProducts this thread is inside, else None."""
    stack = getattr(_active, "stack", [])
    return stack[-1] if stack else None


__all__ = ["FAMILIES", "ReducedPrecisionProducts", "active_emulation", "round_mantissa"]
