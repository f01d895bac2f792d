"""The entries of a wrong-answer file: a plausible wrong answer, a delegation to the reference, another right answer."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"^[a-z0-9_]+$")


def _check_common(kind: str, name: str, source: str, before: str) -> None:
    """Names are short snake_case words; sources are non-empty strings."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"{kind} name must be snake_case letters, digits and '_', got {name!r}")
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"{kind} {name!r}: source must be the whole new source of the solution cell, got {source!r}")
    if not isinstance(before, str):
        raise ValueError(f"{kind} {name!r}: before must be the source of a cell (a string), got {type(before).__name__}")


@dataclass(frozen=True)
class Wrong:
    """A plausible wrong answer: the whole new source of one solution cell.

    visible: a regex that the feedback of the VISIBLE checks must match (the row then starts
    "failed: ", not "failed in the hidden tests"); None: it must lose points, wherever it fails.
    before: the source of a cell the student adds just before the solution cell ("" for none).
    """

    name: str
    source: str
    visible: str | None = None
    before: str = ""

    def __post_init__(self) -> None:
        _check_common("Wrong", self.name, self.source, self.before)
        if self.visible is not None:
            try:
                re.compile(self.visible)
            except (re.error, TypeError) as err:
                raise ValueError(f"Wrong {self.name!r}: visible must be a regex, got {self.visible!r} ({err})") from err


@dataclass(frozen=True)
class Delegation:
    """A solution that calls the package's (or torch's) implementation of what the exercise asks for: it must score 0.

    before: the source of a cell the student adds just before the solution cell (e.g. a copy of
    the reference made there); denied: the dotted path the feedback must name (None: any path
    of the exercise's `# deny:` line).
    """

    name: str
    source: str
    before: str = ""
    denied: str | None = None

    def __post_init__(self) -> None:
        _check_common("Delegation", self.name, self.source, self.before)
        if self.denied is not None and not re.match(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+$", self.denied):
            raise ValueError(f"Delegation {self.name!r}: denied must be a dotted path like utils.attention.causal_mask, "
                             f"got {self.denied!r}")


@dataclass(frozen=True)
class Right:
    """Another correct answer (another spelling of an operation, another method): it must earn full marks.

    before: the source of a cell the student adds just before the solution cell ("" for none).
    """

    name: str
    source: str
    before: str = ""

    def __post_init__(self) -> None:
        _check_common("Right", self.name, self.source, self.before)
