"""Undo monkeypatching before each test: snapshot module attributes and function code, restore them later."""

from __future__ import annotations

import sys
import types
import warnings
from typing import Any

PROTECTED_PREFIXES = ("utils", "torch", "numpy", "math", "operator", "functools", "builtins", "collections", "re")


def _protected(name: str) -> bool:
    """True for modules whose attributes a submission must not be able to change for the tests."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in PROTECTED_PREFIXES)


class Guard:
    """Remembers the attributes of protected modules and classes, and the code of their Python functions."""

    def __init__(self) -> None:
        self._namespaces: list[tuple[Any, dict[str, Any]]] = []
        self._functions: list[tuple[types.FunctionType, tuple]] = []
        self._seen: set[int] = set()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # touching deprecated module attributes warns
            for name, module in list(sys.modules.items()):
                if module is not None and _protected(name):
                    self._remember(module)

    def _remember(self, owner: Any) -> None:
        """Snapshot one module or class and the Python functions and classes it holds."""
        if id(owner) in self._seen:
            return
        self._seen.add(id(owner))
        try:
            attributes = dict(vars(owner))
        except TypeError:
            return
        self._namespaces.append((owner, attributes))
        for value in attributes.values():
            if isinstance(value, types.FunctionType) and id(value) not in self._seen:
                self._seen.add(id(value))
                self._functions.append((value, (value.__code__, value.__defaults__, value.__kwdefaults__)))
            elif isinstance(value, type) and _protected(getattr(value, "__module__", "") or ""):
                self._remember(value)

    def accept(self) -> None:
        """Take the current state as the new baseline (after a trusted cell): changed values, new modules."""
        for _owner, attributes in self._namespaces:
            current = vars(_owner)
            for name, value in list(attributes.items()):
                now = current.get(name, _MISSING)
                if now is not value:
                    if now is _MISSING:
                        del attributes[name]
                    else:
                        attributes[name] = now
            for name, value in current.items():
                if name not in attributes:
                    attributes[name] = value
                    if isinstance(value, types.FunctionType) and id(value) not in self._seen:
                        self._seen.add(id(value))
                        self._functions.append((value, (value.__code__, value.__defaults__, value.__kwdefaults__)))
        self._functions = [(f, (f.__code__, f.__defaults__, f.__kwdefaults__)) for f, _ in self._functions]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, module in list(sys.modules.items()):
                if module is not None and id(module) not in self._seen and _protected(name):
                    self._remember(module)

    def restore(self) -> int:
        """Put back every changed attribute and function body; returns how many were changed."""
        changed = 0
        for owner, attributes in self._namespaces:
            current = vars(owner)
            for name, value in attributes.items():
                if current.get(name, _MISSING) is not value:
                    try:
                        setattr(owner, name, value)
                        changed += 1
                    except (AttributeError, TypeError):
                        pass
        for function, (code, defaults, kwdefaults) in self._functions:
            if function.__code__ is not code or function.__defaults__ is not defaults:
                function.__code__, function.__defaults__, function.__kwdefaults__ = code, defaults, kwdefaults
                changed += 1
        return changed


_MISSING = object()
