"""Loading a red team's adopted mutants: one file per notebook (rNN.py) in that team's folder of tests/mutants/."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.mutation.spec import Mutant


def load_team_file(folder: Path, number: str) -> list[Mutant]:
    """The mutants of notebook `number` ('01'..'12') in `folder`/rNN.py, imported without needing it on sys.path."""
    path = folder / f"r{number}.py"
    spec = importlib.util.spec_from_file_location(f"{folder.name}_r{number}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.MUTANTS)


def adopted_team(folder: Path, number: str, prefix: str, held: set[str]) -> list[Mutant]:
    """A team's mutants of notebook `number`, renamed <prefix>_<name>, without those `held` back and the `base_*` baselines."""
    import dataclasses

    return [dataclasses.replace(m, name=f"{prefix}_{m.name}") for m in load_team_file(folder, number)
            if m.name not in held and not m.name.startswith("base_")]
