"""Partial credit: a test cell split into named parts, each earning its own points.

In a test cell (hidden or visible part), wrap each separable check in a `part`:

    from utils.grading.parts import part

    with part("the output has shape (B, H, 1, Dh)", 1):
        check_shape(...)
    with part("matches the reference for 1 to 8 heads", 2):
        for n_heads in range(1, 9):
            assert ..., f"n_heads = {n_heads}: ..."

Both arguments must be literals (the grader reads the parts from the source before anything runs):
a name, unique in the cell, that tells the student what the part checks, and its points (> 0).
The parts' points add up to at most the test cell's `points`; the rest of the cell's points are
earned when the whole cell runs without an error outside the parts.

In the student's notebook (and under nbval) a part is a plain block: a failing check raises as
usual. In the grader a part that raises an `Exception` is recorded as failed, with its message, and
the cell goes on with the next part; the exercise then earns the points of the parts that passed,
and its feedback lists each part with a check mark or a cross. A denied call anywhere in the
exercise still scores 0. An error outside every part stops the cell: parts that passed before it
keep their points, the parts not reached and the rest of the cell's points are lost.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType

# Set by the grader's harness while a test cell runs: (name, points, error or None) -> None.
_recorder: Callable[[str, float, BaseException | None], None] | None = None


class part:  # noqa: N801 - used as `with part(...)`, like a statement
    """A named block of a test cell worth `points`: in the grader its failure costs only its own points."""

    def __init__(self, name: str, points: float) -> None:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"part(name, points): the name must be a non-empty string, got {name!r}")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or points <= 0:
            raise ValueError(f"part({name!r}, points): points must be a positive number, got {points!r}")
        self.name, self.points = name, float(points)

    def __enter__(self) -> part:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        recorder = _recorder
        if recorder is None:
            return False  # outside the grader: errors propagate as in any cell
        if error is None:
            recorder(self.name, self.points, None)
            return False
        if isinstance(error, Exception):
            recorder(self.name, self.points, error)
            return True  # the cell goes on with its next part
        return False  # SystemExit, KeyboardInterrupt: the whole test fails
