"""Device selection and seeding: one place for both."""

from __future__ import annotations

import os
import random

import numpy as np
import torch

DEVICE_ENV_VAR = "LM_DEVICE"
_VALID = ("cpu", "cuda", "mps")


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def get_device(prefer: str | None = None) -> torch.device:
    """Return the device to use: `prefer`, else $LM_DEVICE, else CUDA, then MPS, then CPU."""
    choice = prefer if prefer is not None else os.environ.get(DEVICE_ENV_VAR, "").strip()
    if choice:
        kind = choice.split(":")[0].lower()
        if kind not in _VALID:
            raise ValueError(
                f"unknown device {choice!r}: use one of {', '.join(_VALID)} "
                f"(or unset ${DEVICE_ENV_VAR} to choose automatically)"
            )
        if kind == "cuda" and not torch.cuda.is_available():
            raise ValueError(f"device {choice!r} requested but CUDA is not available here; use 'cpu'")
        if kind == "mps" and not _mps_available():
            raise ValueError(f"device {choice!r} requested but Apple MPS is not available here; use 'cpu'")
        return torch.device(choice)
    if torch.cuda.is_available():
        return torch.device("cuda")
    if _mps_available():
        return torch.device("mps")
    return torch.device("cpu")


def set_seed(seed: int) -> torch.Generator:
    """Seed python, numpy and torch (all devices); return a CPU generator seeded the same way."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    return torch.Generator().manual_seed(seed)
