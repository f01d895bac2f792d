"""PyTorch operations named in `# deny:` lines, recognised by what runs, not by how the call is spelled.

A denied path that names a torch function (`torch.softmax`, `torch.nn.functional.softmax`,
`torch.Tensor.softmax`, `torch.special.softmax`, `torch.ops.aten.softmax`, ...) stands for its
*operation*, and the grader watches that operation at two layers of PyTorch (`deny.CallMonitor`):

- `calls`: the names a call carries when `torch.overrides.TorchFunctionMode` sees it, which is every
  torch call made from Python code, whatever the spelling (a Tensor method, a function of `torch`,
  `torch.nn.functional`, `torch.special` or `torch.ops.aten`, an alias, a `functools.partial`);
- `kernels`: the ATen kernels `torch.utils._python_dispatch.TorchDispatchMode` sees after
  composite operations were decomposed, which also catches the operation when a library
  function runs it on the student's behalf (`F.cross_entropy` runs `nll_loss_forward`).

Each operation of the table was checked on PyTorch 2.13 (tests/test_grading_operations.py): which
names its spellings carry and which kernels it runs on the CPU. A torch function outside the table
is watched by its own name, and by the kernel of that name when ATen has one that is not a composite.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TorchOperation:
    """One operation: its name in messages, the call names that mean it, the kernels that run it."""

    name: str
    calls: frozenset[str]
    kernels: frozenset[str] = frozenset()


def _op(name: str, calls: set[str], kernels: set[str]) -> TorchOperation:
    return TorchOperation(name, frozenset(calls | {name}), frozenset(kernels))


# The operations the course's exercises deny (grep '# deny:' notebooks/*.ipynb), with every name they go by.
KNOWN = [
    # softmax: torch.softmax, Tensor.softmax, F.softmax, torch.special.softmax, nn.Softmax, torch._softmax;
    # _safe_softmax is the softmax scaled_dot_product_attention's reference path runs.
    _op("softmax", {"special_softmax", "_softmax", "_safe_softmax"}, {"_softmax", "_safe_softmax"}),
    _op("log_softmax", {"special_log_softmax", "_log_softmax"}, {"_log_softmax"}),
    # The fused attention kernels; with dropout on the CPU it decomposes into plain ops (the call still shows).
    _op("scaled_dot_product_attention", {"_scaled_dot_product_attention_math"},
        {"_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_flash_attention",
         "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
         "_scaled_dot_product_fused_attention_overrideable"}),
    # F.cross_entropy is log_softmax then nll_loss (probability targets: a sum), so its own trace is the call.
    _op("cross_entropy", {"cross_entropy_loss"}, set()),
    _op("nll_loss", {"nll_loss_nd", "nll_loss2d", "nll_loss_forward", "nll_loss2d_forward"},
        {"nll_loss_forward", "nll_loss2d_forward"}),
    # gru_cell decomposes into matrix products and gates: only the call shows it (torch.gru_cell, _VF, nn.GRUCell).
    _op("gru_cell", set(), set()),
    _op("gru", set(), set()),
    _op("batch_norm", {"native_batch_norm", "_batch_norm_impl_index", "_native_batch_norm_legit",
                       "_native_batch_norm_legit_no_training"},
        {"native_batch_norm", "_native_batch_norm_legit", "_native_batch_norm_legit_no_training",
         "_batch_norm_with_update", "_batch_norm_no_update", "cudnn_batch_norm", "miopen_batch_norm"}),
]
_BY_CALL = {call: operation for operation in KNOWN for call in operation.calls}


def call_name(func: Any) -> str | None:
    """The name a torch call goes by: an ATen operator's name, or the function's (`softmax` for every spelling)."""
    packet = getattr(func, "_overloadpacket", None)  # torch.ops.aten.softmax.int
    if packet is not None:
        func = packet
    qualified = getattr(func, "_qualified_op_name", None)  # torch.ops.aten.softmax: 'aten::softmax'
    if isinstance(qualified, str):
        return qualified.split("::")[-1]
    name = getattr(func, "__name__", None)
    return name if isinstance(name, str) else None


def _is_torch(target: Any) -> bool:
    """True for a function or method of PyTorch's API or ATen (not a class: classes are watched by their code)."""
    from torch.overrides import resolve_name

    if isinstance(target, type):
        return False
    if hasattr(target, "_overloadpacket") or hasattr(target, "_qualified_op_name"):
        return True  # torch.ops.aten.X(.overload)
    owner = getattr(target, "__self__", None)  # builtins of torch._C's modules: torch._C._nn.cross_entropy_loss
    if isinstance(target, types.BuiltinFunctionType) and str(getattr(owner, "__name__", "")).startswith("torch._C"):
        return True
    try:
        return resolve_name(target) is not None
    except (TypeError, AttributeError):
        return False


def _aten_kernel(name: str) -> set[str]:
    """{name} when ATen has an operator of that name that runs as its own kernel (not decomposed), else {}."""
    import torch

    try:
        packet = getattr(torch.ops.aten, name)
        overload = packet.default if "default" in packet.overloads() else getattr(packet, packet.overloads()[0])
    except (AttributeError, IndexError, RuntimeError):
        return set()
    composite = torch._C._dispatch_has_kernel_for_dispatch_key(overload.name(), "CompositeImplicitAutograd")
    return set() if composite else {name}


def operation_for(target: Any) -> TorchOperation | None:
    """The torch operation a resolved deny target stands for; None for what is not a torch function."""
    if not _is_torch(target):
        return None
    name = call_name(target)
    if name is None:
        return None
    known = _BY_CALL.get(name)
    if known is not None:
        return known
    return TorchOperation(name, frozenset({name}), frozenset(_aten_kernel(name)))
