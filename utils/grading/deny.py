"""Each exercise's deny-list: what a solution must not call, and the monitor that catches the calls.

An exercise declares its deny-list in the visible part of its test cell, one comment line, and may
say in a second line what the exercise asks the student to write (for the feedback):

    # deny: utils.attention.causal_mask, torch.nn.functional.scaled_dot_product_attention
    # deny-reason: the causal mask

The release tool keeps both lines (students see what is off limits) and validates them; the
grader's child resolves the paths before any student code runs and watches every call made while
the student's code runs (their solution cells, cells they added, and the test cell that calls their
functions). A call with a frame of the student's code anywhere on the stack is a violation, however
it was reached: directly, through an alias, a module attribute, `getattr`, a copy of the function
object, or other library code. Three layers see the calls:

- Python functions (the package's references, `torch.nn.utils.clip_grad_norm_`): `sys.setprofile`
  matches the code object, so a copy of the function is caught too; builtins are matched by identity;
- torch operations (`torch.softmax` and every other spelling of softmax, `scaled_dot_product_attention`,
  `cross_entropy`, ...): `operations` names the operation, and `torch_watch` sees its calls
  (TorchFunctionMode) and its ATen kernels (TorchDispatchMode) whatever the spelling.

A solution name bound to the reference itself (`mine = reference`, an import `as mine`, a `functools.partial`) leaves
no frame of the student's code on the stack when the test cell calls it: before each test cell runs, the grader looks
up the values of the solutions' names and counts one that IS a denied function as a call to it (`path_of_value`).

Known limit: code compiled by the student under a fake library file name in a fresh namespace is
taken for library code; `compile(`/`exec(` are flagged for manual review by the grader.
"""

from __future__ import annotations

import functools
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
REASON_LINE = re.compile(r"^\s*#\s*deny-reason:\s*(?P<reason>.*?)\s*$", re.MULTILINE | re.IGNORECASE)
DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
TAMPERING = "sys.setprofile"  # the name reported when student code switches the monitor off
TAMPERING_MODES = "torch.overrides._pop_mode"  # ... or removes the grader's PyTorch modes


def denied_paths(test_source: str) -> list[str]:
    """The dotted paths declared by `# deny:` lines of a test cell, in order, without repeats."""
    found: list[str] = []
    for match in DENY_LINE.finditer(test_source):
        for part in match.group("paths").split(","):
            path = part.strip()
            if path and path not in found:
                found.append(path)
    return found


def deny_reason(test_source: str) -> str | None:
    """What the exercise asks the student to write, from its `# deny-reason:` line (None without one)."""
    match = REASON_LINE.search(test_source)
    return match.group("reason") if match and match.group("reason") else None


def deny_problems(test_source: str) -> list[str]:
    """Syntax problems of a test cell's `# deny:` and `# deny-reason:` lines."""
    problems = [f"'# deny:' entry {path!r} is not a dotted path such as utils.attention.causal_mask"
                for path in denied_paths(test_source) if not DOTTED.match(path)]
    reasons = REASON_LINE.findall(test_source)
    if len(reasons) > 1:
        problems.append("more than one '# deny-reason:' line (keep one)")
    if reasons and not all(reason.strip() for reason in reasons):
        problems.append("an empty '# deny-reason:' line (say what the exercise asks for, e.g. 'cached attention')")
    if reasons and not denied_paths(test_source):
        problems.append("a '# deny-reason:' line without a '# deny:' line")
    return problems


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


@dataclass(frozen=True)
class Violation:
    """A denied call: the denied path, the innermost function of the student's code that led to it, and how."""

    path: str
    caller: str
    via: str | None = None  # the spelling or kernel seen, when it is not the path itself

    def record(self) -> dict[str, str | None]:
        """The violation as the child reports it (the parent words the feedback)."""
        return {"path": self.path, "caller": self.caller, "via": self.via}


@dataclass
class DenyTable:
    """Resolved deny-lists: for each exercise, its paths; and how to recognise a call to each path."""

    by_exercise: dict[str, list[str]] = field(default_factory=dict)
    by_code_site: dict[str, dict[int, str]] = field(default_factory=dict)  # co_filename -> first line -> path
    by_builtin: dict[int, str] = field(default_factory=dict)  # id(builtin) -> path
    by_call: dict[str, list[str]] = field(default_factory=dict)  # torch call name -> paths of its operation
    by_kernel: dict[str, list[str]] = field(default_factory=dict)  # ATen kernel -> paths of its operation
    keep_alive: list[Any] = field(default_factory=list)  # objects whose ids are keys above
    errors: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, declared: dict[str, list[str]]) -> DenyTable:
        """Resolve every exercise's paths; a path that does not resolve is kept in `errors`."""
        from utils.grading.operations import operation_for

        table = cls(by_exercise={gid: list(paths) for gid, paths in declared.items()})
        ordered = list(dict.fromkeys(p for paths in declared.values() for p in paths))
        for path in ordered:
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
            operation = operation_for(target)
            if operation is not None:
                for name in operation.calls:
                    table.by_call.setdefault(name, []).append(path)
                for kernel in operation.kernels:
                    table.by_kernel.setdefault(kernel, []).append(path)
        for builtin in (sys.setprofile, threading.setprofile):
            for code in _python_codes(builtin):
                table.by_code_site.setdefault(code.co_filename, {})[code.co_firstlineno] = TAMPERING
            if not _python_codes(builtin):
                table.by_builtin[id(builtin)] = TAMPERING
                table.keep_alive.append(builtin)
        return table

    def path_of_value(self, value: Any) -> str | None:
        """The denied path that `value` itself is (a denied function, method, class or builtin, or a functools.partial
        of one), else None: a name bound straight to the reference is called from the test cell, not from student code."""
        for _ in range(8):
            if not isinstance(value, functools.partial):
                break
            value = value.func
        if callable(value) and id(value) in self.by_builtin:
            return self.by_builtin[id(value)]
        try:
            codes = _python_codes(value)
        except Exception:  # noqa: BLE001 - an object the grader cannot inspect is not a denied function
            return None
        for code in codes:
            path = self.by_code_site.get(code.co_filename, {}).get(code.co_firstlineno)
            if path is not None and path != TAMPERING:
                return path
        return None


def _first_watched(by_name: dict[str, list[str]], watching: frozenset[str]) -> dict[str, str]:
    """name -> the first watched path among those its operation stands for."""
    chosen = {}
    for name, paths in by_name.items():
        watched = [path for path in paths if path in watching]
        if watched:
            chosen[name] = watched[0]
    return chosen


class CallMonitor:
    """Watches calls with sys.setprofile (and threading.setprofile), and torch operations with PyTorch's modes."""

    def __init__(self, table: DenyTable, is_student_frame: Callable[[types.FrameType], bool]) -> None:
        self._table, self._is_student = table, is_student_frame
        self._watching: frozenset[str] = frozenset()
        self._operations: Any = None  # a torch_watch.OperationWatch while torch operations are watched
        self.found: dict[tuple[str, str], Violation] = {}

    def _blame(self, frame: types.FrameType | None, path: str, via: str | None = None) -> None:
        """Record a violation when a frame of the student's code is on the stack above `frame`."""
        while frame is not None:
            if self._is_student(frame):
                caller = frame.f_code.co_name
                self.found.setdefault((path, caller), Violation(path, caller, None if via == path else via))
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
        self.found = {}
        calls = _first_watched(self._table.by_call, self._watching)
        kernels = _first_watched(self._table.by_kernel, self._watching)
        if calls or kernels:
            from utils.grading.torch_watch import OperationWatch

            self._operations = OperationWatch(calls, kernels, self._blame)
            self._operations.start()
        threading.setprofile(self._profile)
        sys.setprofile(self._profile)

    def stop(self) -> list[Violation]:
        """Stop watching; returns the violations seen since start(), one per (path, caller)."""
        sys.setprofile(None)
        threading.setprofile(None)
        if self._operations is not None:
            if not self._operations.stop():
                self.found.setdefault((TAMPERING_MODES, ""), Violation(TAMPERING_MODES, ""))
            self._operations = None
        self._watching, found, self.found = frozenset(), list(self.found.values()), {}
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
