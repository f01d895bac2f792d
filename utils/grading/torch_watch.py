"""Watch PyTorch operations however they are reached: a TorchFunctionMode for calls, a TorchDispatchMode for kernels.

`OperationWatch` pushes the two modes while the student's code runs (only those the denied
operations need) and reports each call of a watched operation to a callback with the Python frame
it came from; `deny.CallMonitor` decides whether the student's code is on that frame's stack.
`torch.overrides.TorchFunctionMode` sees every torch call made from Python (its function object
tells the spelling: `torch.Tensor.softmax`, `torch.special.softmax`, ...);
`torch.utils._python_dispatch.TorchDispatchMode` sees the ATen kernels that run, after composite
operations were decomposed, so it also sees an operation that library code runs for the student.
Modes are per thread: torch calls in threads the student starts are not watched (their Python
calls are, by the profile hook).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

from torch.overrides import TorchFunctionMode, resolve_name
from torch.utils._python_dispatch import TorchDispatchMode

from utils.grading.operations import call_name

Report = Callable[[types.FrameType | None, str, str], None]  # (frame, denied path, how it was reached)


class _CallWatch(TorchFunctionMode):
    """Sees each torch call from Python; reports those whose name is watched."""

    def __init__(self, calls: dict[str, str], report: Report) -> None:
        super().__init__()
        self._calls, self._report = calls, report
        self._known: dict[int, tuple[Any, str | None, str]] = {}  # id(func) -> (func, watched path, its spelling)

    def _lookup(self, func: Any) -> tuple[Any, str | None, str]:
        known = self._known.get(id(func))
        if known is None or known[0] is not func:
            path = self._calls.get(call_name(func) or "")
            try:
                spelled = (resolve_name(func) or str(func)) if path is not None else ""
            except Exception:  # noqa: BLE001 - a name for the message only
                spelled = str(func)
            known = (func, path, spelled)
            self._known[id(func)] = known
        return known

    def __torch_function__(self, func: Any, types_: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        _, path, spelled = self._lookup(func)
        if path is not None:
            self._report(sys._getframe(1), path, spelled)
        return func(*args, **(kwargs or {}))


class _KernelWatch(TorchDispatchMode):
    """Sees each ATen kernel that runs; reports the watched ones."""

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        """No: torch would wrap __torch_dispatch__ in dynamo's `disable` (importing dynamo, 4-6 s, slower calls)."""
        return False

    def __init__(self, kernels: dict[str, str], report: Report) -> None:
        super().__init__()
        self._kernels, self._report = kernels, report

    def __torch_dispatch__(self, func: Any, types_: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        name = getattr(getattr(func, "_overloadpacket", None), "__name__", None)  # None for higher-order ops
        path = self._kernels.get(name) if name is not None else None
        if path is not None:
            self._report(sys._getframe(1), path, f"aten.{name}")
        run = getattr(func, "_op", func)  # OpOverload.__call__ only calls _op: one Python frame less per kernel
        return run(*args, **(kwargs or {}))


class OperationWatch:
    """Pushes the modes a set of watched calls and kernels needs; pops them; tells whether they were removed."""

    def __init__(self, calls: dict[str, str], kernels: dict[str, str], report: Report) -> None:
        self._call_watch = _CallWatch(calls, report) if calls else None
        self._kernel_watch = _KernelWatch(kernels, report) if kernels else None
        self._depths: tuple[int, int] = (0, 0)

    def start(self) -> None:
        """Push the modes (the function mode and the dispatch mode, as needed)."""
        import torch.overrides as function_modes
        import torch.utils._python_dispatch as dispatch_modes

        self._depths = (len(function_modes._get_current_function_mode_stack()),
                        len(dispatch_modes._get_current_dispatch_mode_stack()))
        if self._call_watch is not None:
            function_modes._push_mode(self._call_watch)
        if self._kernel_watch is not None:
            dispatch_modes._push_mode(self._kernel_watch)

    def stop(self) -> bool:
        """Pop the modes and whatever was pushed above them; False when one of ours had been removed meanwhile."""
        import torch.overrides as function_modes
        import torch.utils._python_dispatch as dispatch_modes

        function_stack = function_modes._get_current_function_mode_stack()
        dispatch_stack = dispatch_modes._get_current_dispatch_mode_stack()
        intact = ((self._call_watch is None or any(m is self._call_watch for m in function_stack))
                  and (self._kernel_watch is None or any(m is self._kernel_watch for m in dispatch_stack)))
        while len(dispatch_modes._get_current_dispatch_mode_stack()) > self._depths[1]:
            dispatch_modes._pop_mode()
        while len(function_modes._get_current_function_mode_stack()) > self._depths[0]:
            function_modes._pop_mode()
        return intact
