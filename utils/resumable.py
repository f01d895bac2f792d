"""A training run that survives an interruption: its state saved every so often, picked up by the next run.

A first run of notebooks 09-11 trains models into the checkpoint cache (utils.zoo); on a slow or busy machine
that can take many minutes, and a kernel stopped on the way (interrupted, restarted, JupyterLab closed) used to
lose all of it. ResumableRun saves the model, the optimizer, the batch generator's and torch's random state
and the next step into `<checkpoint>.partial.pt` at most every `every_s` seconds; the next run resumes from it
and ends with the same weights as an uninterrupted run (tests/test_resumable.py).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

SAVE_EVERY_S = 20.0


class ResumableRun:
    """The partial state of one training run, kept next to its final checkpoint."""

    def __init__(self, checkpoint: Path, key: str, every_s: float | None = None):
        self.path = Path(checkpoint).with_suffix(".partial.pt")
        self.key, self.every_s = key, SAVE_EVERY_S if every_s is None else every_s
        self._last_save = time.monotonic()

    def load(self) -> dict[str, Any] | None:
        """The saved state of an interrupted run of this recipe, or None (none, foreign or unreadable)."""
        if not self.path.exists():
            return None
        try:
            state = torch.load(self.path, map_location="cpu", weights_only=True)
        except Exception:  # noqa: BLE001 - a truncated file: start over
            return None
        return state if isinstance(state, dict) and state.get("key") == self.key else None

    def restore(self, state: dict[str, Any], model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                generator: torch.Generator) -> int:
        """Put a saved state back into the run's objects; returns the step to go on from."""
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        generator.set_state(state["generator"])
        torch.set_rng_state(state["torch_rng"])
        return int(state["next_step"])

    def maybe_save(self, next_step: int, model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                   generator: torch.Generator, seconds: float, force: bool = False) -> bool:
        """Save the state (atomically) when `every_s` seconds have passed since the last save; True if saved."""
        if not force and time.monotonic() - self._last_save < self.every_s:
            return False
        state = {"key": self.key, "next_step": next_step, "seconds": seconds,
                 "model": {k: v.detach().cpu() for k, v in model.state_dict().items()},
                 "optimizer": optimizer.state_dict(), "generator": generator.get_state(),
                 "torch_rng": torch.get_rng_state()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        os.close(handle)
        try:
            torch.save(state, temp)
            os.replace(temp, self.path)
        finally:
            Path(temp).unlink(missing_ok=True)
        self._last_save = time.monotonic()
        return True

    def clear(self) -> None:
        """Remove the partial state (the run finished and its checkpoint is saved)."""
        self.path.unlink(missing_ok=True)
