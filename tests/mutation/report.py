"""Print the table notebook | show | mutants | killed for the mutant files (--run: run the mutants, two at a time).

    python tests/mutation/report.py [--run] [--workers N] [notebook ...]

The kernels get the test suite's environment (conftest.py: fast mode, one thread each, the data
mirror, a temporary checkpoint folder) unless those variables are already set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable as `tests.mutation`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import conftest  # noqa: E402,F401  the test suite's settings for the kernels: LM_FAST=1, OMP_NUM_THREADS=1, mirror, cache
from tests.mutation.runner import Outcome, run_mutants  # noqa: E402
from tests.mutation.spec import MutantFile, mutant_files, show_cells  # noqa: E402


def table(files: list[MutantFile], outcomes: dict[tuple[str, str], Outcome] | None = None) -> str:
    """Markdown table: one row per show cell (and per target that is not a show), mutants named, killed counted."""
    rows = ["| notebook | show | mutants | killed |", "|---|---|---|---|"]
    for file in files:
        shows = show_cells(file.notebook_path) if file.notebook_path.is_file() else {}
        targets = list(shows) + [m.target for m in file.mutants if m.target not in shows]
        for cell_id in dict.fromkeys(targets):
            mutants = [m for m in file.mutants if m.target == cell_id]
            show = shows.get(cell_id, f"(not a show: {cell_id})")
            if outcomes is None:
                killed = "-"
            else:
                killed = f"{sum(outcomes[(file.notebook, m.name)].killed for m in mutants)}/{len(mutants)}"
            names = ", ".join(m.name for m in mutants) or "**none**"
            rows.append(f"| {file.notebook} | {show} ({cell_id}) | {names} | {killed} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Print the table; with --run also each mutant's outcome and time. Exit 1 if a run mutant survived."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebook file names (default: every mutant file)")
    parser.add_argument("--run", action="store_true", help="run the mutants (fresh kernel each)")
    parser.add_argument("--workers", type=int, default=2, help="kernels at a time with --run (at most 2)")
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 2:
        parser.error("--workers must be 1 or 2")
    files = mutant_files()
    known = {f.notebook for f in files}
    unknown = [name for name in args.notebooks if name not in known]
    if unknown:
        parser.error(f"no mutant file for {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    files = [f for f in files if not args.notebooks or f.notebook in args.notebooks]
    outcomes = None
    if args.run:
        jobs = [(f.notebook_path, m) for f in files for m in f.mutants]
        results = run_mutants(jobs, workers=args.workers)
        outcomes = {(o.notebook, o.mutant): o for o in results}
        for o in results:
            print(f"{'killed  ' if o.killed else 'SURVIVED'} {o.seconds:6.1f} s  {o.notebook} {o.mutant}: {o.reason}")
        print()
    print(table(files, outcomes))
    return 0 if outcomes is None or all(o.killed for o in outcomes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
