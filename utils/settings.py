"""Full or fast sizes: the test suite sets LM_FAST=1 to shrink training in the notebooks."""

from __future__ import annotations

import os
from typing import TypeVar

FAST_ENV_VAR = "LM_FAST"
T = TypeVar("T")


def fast_mode() -> bool:
    """True when $LM_FAST is set to 1/true/yes (the test suite's setting)."""
    return os.environ.get(FAST_ENV_VAR, "").strip().lower() in {"1", "true", "yes"}


def pick(full: T, fast: T) -> T:
    """Return `fast` in fast mode, otherwise `full` (for step counts and sizes in parameter cells)."""
    return fast if fast_mode() else full
