"""Counting the work a computation does and the memory it holds (notebook 10): counts, not timings, so the same on
every device and under any load."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import torch
from torch.overrides import TorchFunctionMode


class _Writes(TorchFunctionMode):
    """Adds up the elements of every tensor an operation writes: a new (non-view) result, or the target of an
    in-place write (`t[i] = x`, `t.copy_(x)`, `t.add_(x)`, ...)."""

    def __init__(self) -> None:
        super().__init__()
        self.total = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        name = getattr(func, "__name__", "")
        if name == "__setitem__":
            self.total += args[0][args[1]].numel()  # the region written
        elif name.endswith("_") and not name.startswith("_") and isinstance(args[0], torch.Tensor):
            self.total += args[0].numel()  # in place
        elif isinstance(out, torch.Tensor) and not out._is_view():
            self.total += out.numel()  # a new tensor filled by the operation
        return out


def elements_written(function: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
    """Elements of the tensors that function(*args, **kwargs) creates or writes into (views, which copy nothing, not
    counted)."""
    with _Writes() as writes:
        function(*args, **kwargs)
    return writes.total


def positions_per_call(modules: Iterable[torch.nn.Module], run: Callable[[], Any]) -> list[list[int]]:
    """For each module, the positions (dimension 1 of its first input) of each of its calls while run() executes."""
    modules = list(modules)
    calls: list[list[int]] = [[] for _ in modules]
    hooks = [module.register_forward_hook(lambda _m, inputs, _o, seen=seen: seen.append(inputs[0].shape[1]))
             for module, seen in zip(modules, calls)]
    try:
        run()
    finally:
        for hook in hooks:
            hook.remove()
    return calls


class FunctionCalls(TorchFunctionMode):
    """Inside `with`: `calls` lists (function name, shape of its first argument, id of its second) for every call of
    the given torch functions (e.g. F.scaled_dot_product_attention: the query shape; F.linear: the input and weight)."""

    def __init__(self, *functions: Callable[..., Any]) -> None:
        super().__init__()
        self.functions, self.calls = functions, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if any(func is f for f in self.functions):
            second = args[1] if len(args) > 1 else None
            self.calls.append((func.__name__, tuple(args[0].shape), id(second)))
        return func(*args, **(kwargs or {}))


def _tensors(obj: Any, seen: set[int]) -> Iterable[torch.Tensor]:
    """Every tensor reachable from obj through attributes, lists, tuples and dicts (each object visited once)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _tensors(value, seen)
    elif isinstance(obj, (list, tuple, set)):
        for value in obj:
            yield from _tensors(value, seen)
    elif hasattr(obj, "__dict__") and not isinstance(obj, (type, torch.nn.Module)):
        for value in vars(obj).values():
            yield from _tensors(value, seen)


def tensor_bytes(obj: Any) -> int:
    """Bytes of the storages of every tensor reachable from obj (each storage once): what it keeps alive, measured
    without asking obj."""
    storages = {}
    for tensor in _tensors(obj, set()):
        storage = tensor.untyped_storage()
        storages[(tensor.device, storage.data_ptr())] = storage.nbytes()
    return sum(storages.values())


__all__ = ["elements_written", "positions_per_call", "FunctionCalls", "tensor_bytes"]
