"""Each exercise's deny-list: the reference functions a solution must not call, and the monitor that catches calls.

An exercise declares its deny-list in the visible part of its test cell, one comment line:

    # deny: utils.attention.causal_mask, torch.nn.functional.scaled_dot_product_attention

The release tool keeps the line (students see what is off limits) and validates it; the grader's child
resolves the paths before any student code runs and watches, with `sys.setprofile`, every call made
while the student's code runs (their solution cells, cells they added, and the test cell that calls their
functions). A call into a denied function with a frame of the student's code anywhere on the stack is a
violation: it does not matter whether the student called it directly, through an alias, a module
attribute, `getattr`, a copy of the function object (the code object is what is matched) or through
other library code. Known limit: code compiled by the student under a fake library file name in a fresh
namespace is taken for library code; `compile(`/`exec(` are flagged for manual review by the grader.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import threading
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

DENY_LINE = re.compile(r"^\s*#\s*deny:\s*(?P<paths>.+?)\s*$", re.MULTILINE | re.IGNORECASE)
DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
TAMPERING = "sys.setprofile"  # the name reported when student code switches the monitor off


def denied_paths(test_source: str) -> list[str]:
    """The dotted paths declared by `# deny:` lines of a test cell, in order, without repeats."""
    found: list[str] = []
    for match in DENY_LINE.finditer(test_source):
        for part in match.group("paths").split(","):
            path = part.strip()
            if path and path not in found:
                found.append(path)
    return found


def deny_problems(test_source: str) -> list[str]:
    """Syntax problems of a test cell's `# deny:` lines (each entry must be a dotted path like `pkg.mod.name`)."""
    return [f"'# deny:' entry {path!r} is not a dotted path such as utils.attention.causal_mask"
            for path in denied_paths(test_source) if not DOTTED.match(path)]


def resolve(path: str) -> Any:
    """The object a dotted path names: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            target: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for name in parts[split:]:
                target = getattr(target, name)
        except AttributeError as error:
            raise LookupError(f"'# deny: {path}': {'.'.join(parts[:split])} has no attribute path "
                              f"{'.'.join(parts[split:])!r}") from error
        return target
    raise LookupError(f"'# deny: {path}': no importable module in that path")


def _python_codes(target: Any) -> list[types.CodeType]:
    """Code objects whose execution counts as calling `target` (functions unwrapped; classes by their methods)."""
    if isinstance(target, type):
        methods = [vars(target).get(name) for name in ("__init__", "forward", "__call__")]
        codes = [code for method in methods if method is not None for code in _python_codes(method)]
        return [code for code in codes if os.path.isfile(code.co_filename)]  # not a dataclass's generated __init__
    if isinstance(target, property):
        return [code for accessor in (target.fget, target.fset) if accessor is not None
                for code in _python_codes(accessor)]
    if isinstance(target, (staticmethod, classmethod)):
        target = target.__func__
    target = inspect.unwrap(target) if callable(target) else target
    if isinstance(target, types.MethodType):
        target = target.__func__
    if isinstance(target, types.FunctionType):
        return [target.__code__]
    call = getattr(type(target), "__call__", None)
    return [call.__code__] if isinstance(call, types.FunctionType) else []


@dataclass
class Violation:
    """A denied call: what was called, and the innermost function of the student's code that led to it."""

    path: str
    caller: str

    def message(self) -> str:
        """Feedback for the student."""
        if self.path == TAMPERING:
            return (f"{self.caller} calls {TAMPERING}, which switches off the grader's check of the "
                    "functions this exercise asks you to write; calling it scores 0")
        return (f"{self.caller} calls {self.path}, the function this exercise asks you to write; "
                "write it yourself (calling it scores 0)")


@dataclass
class DenyTable:
    """Resolved deny-lists: for each exercise, its paths; and how to recognise a call to each path."""

    by_exercise: dict[str, list[str]] = field(default_factory=dict)
    by_code_site: dict[str, dict[int, str]] = field(default_factory=dict)  # co_filename -> first line -> path
    by_builtin: dict[int, str] = field(default_factory=dict)  # id(builtin) -> path
    keep_alive: list[Any] = field(default_factory=list)  # objects whose ids are keys above
    errors: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, declared: dict[str, list[str]]) -> DenyTable:
        """Resolve every exercise's paths; a path that does not resolve is kept in `errors`."""
        table = cls(by_exercise={gid: list(paths) for gid, paths in declared.items()})
        for path in sorted({p for paths in declared.values() for p in paths}):
            try:
                target = resolve(path)
            except LookupError as error:
                table.errors.append(str(error))
                continue
            codes = _python_codes(target)
            for code in codes:
                table.by_code_site.setdefault(code.co_filename, {})[code.co_firstlineno] = path
            if not codes and callable(target):
                table.by_builtin[id(target)] = path
                table.keep_alive.append(target)
        for builtin in (sys.setprofile, threading.setprofile):
            for code in _python_codes(builtin):
                table.by_code_site.setdefault(code.co_filename, {})[code.co_firstlineno] = TAMPERING
            if not _python_codes(builtin):
                table.by_builtin[id(builtin)] = TAMPERING
                table.keep_alive.append(builtin)
        return table


class CallMonitor:
    """Watches calls with sys.setprofile (and threading.setprofile) while the student's code runs."""

    def __init__(self, table: DenyTable, is_student_frame: Callable[[types.FrameType], bool]) -> None:
        self._table, self._is_student = table, is_student_frame
        self._watching: frozenset[str] = frozenset()
        self.found: list[Violation] = []

    def _blame(self, frame: types.FrameType | None, path: str) -> None:
        """Record a violation when a frame of the student's code is on the stack above `frame`."""
        while frame is not None:
            if self._is_student(frame):
                self.found.append(Violation(path, frame.f_code.co_name))
                return
            frame = frame.f_back

    def _profile(self, frame: types.FrameType, event: str, arg: Any) -> None:
        """The profile function: cheap for every call that is not a denied one."""
        if event == "call":
            sites = self._table.by_code_site.get(frame.f_code.co_filename)
            if sites is not None:
                path = sites.get(frame.f_code.co_firstlineno)
                if path is not None and (path in self._watching or path == TAMPERING):
                    self._blame(frame.f_back, path)
        elif event == "c_call":
            path = self._table.by_builtin.get(id(arg))
            if path is not None and (path in self._watching or path == TAMPERING):
                self._blame(frame, path)

    def start(self, paths: Iterable[str]) -> None:
        """Start watching calls into `paths` (in this thread and in threads started from now on)."""
        self._watching = frozenset(paths)
        self.found = []
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)

    def stop(self) -> list[Violation]:
        """Stop watching; returns the violations seen since start(), one per (path, caller)."""
        sys.setprofile(None)
        threading.setprofile(None)
        unique: dict[tuple[str, str], Violation] = {}
        for violation in self.found:
            unique.setdefault((violation.path, violation.caller), violation)
        self._watching, found, self.found = frozenset(), list(unique.values()), []
        return found


def library_file_checker() -> Callable[[str], bool]:
    """A cached test: is this code file name a real file of the Python installation or of the course package?"""
    import sysconfig

    import utils

    roots = {os.path.realpath(os.path.dirname(utils.__file__ or "."))}
    for scheme_path in ("stdlib", "platstdlib", "purelib", "platlib"):
        roots.add(os.path.realpath(sysconfig.get_paths()[scheme_path]))
    roots = {root for root in roots if root != os.path.realpath("/")}
    cache: dict[str, bool] = {}

    def is_library(file_name: str) -> bool:
        known = cache.get(file_name)
        if known is None:
            if file_name.startswith("<frozen "):
                known = True
            elif os.path.isabs(file_name) and os.path.isfile(file_name):
                real = os.path.realpath(file_name)
                known = any(real.startswith(root + os.sep) for root in roots)
            else:
                known = False
            cache[file_name] = known
        return known

    return is_library
