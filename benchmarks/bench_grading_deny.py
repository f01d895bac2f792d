"""What watching torch operations costs: a real notebook graded with and without the grader's PyTorch modes.

    python benchmarks/bench_grading_deny.py                              # notebooks 09 and 10, 3 rounds
    python benchmarks/bench_grading_deny.py --notebooks 07 01 --rounds 5

For each notebook the source notebook (the solutions, as a student who passes hands it in) is graded,
in fast mode with one thread per process as the instructors' guide grades (LM_FAST=1 and OMP_NUM_THREADS=1 unless
the environment sets them), by one helper process (no sandbox: it costs the same for every variant) in three variants, in turns,
`--rounds` times each:

- `full`: as `grade` does it: the deny-lists with their torch operations (TorchFunctionMode and,
  where a kernel identifies the operation, TorchDispatchMode pushed while the student's code runs);
- `python only`: the same deny-lists without their torch paths (only the profile hook of before);
- `no deny`: no deny-list at all.

Printed per notebook and variant: the median and the spread of the run's wall time, and the full
variant's overhead over `python only`, in seconds and in percent. Then a micro-benchmark: one call
of a small softmax, and one small training step, with and without the modes (median of 5 x 2000
calls). The last line is one JSON object with the figures. Speed figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LM_FAST", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")  # as the guide's grading figures; spinning threads on a busy machine

from utils.grading.assemble import plan_submission  # noqa: E402
from utils.grading.deny import resolve  # noqa: E402
from utils.grading.grade import load_sources  # noqa: E402
from utils.grading.operations import operation_for  # noqa: E402
from utils.grading.rows import rows_from_run  # noqa: E402
from utils.grading.sandbox import Zygote, preload_modules  # noqa: E402


def _without_torch(denied: dict[str, list[str]]) -> dict[str, list[str]]:
    """The deny-lists without the paths that name torch operations."""
    return {gid: [p for p in paths if operation_for(resolve(p)) is None] for gid, paths in denied.items()}


def grade_times(notebook: Path, rounds: int, timeout_s: float) -> dict[str, list[float]]:
    """Wall seconds of each variant's run, `rounds` times each, in turns; every run must earn full points."""
    (source,) = load_sources([notebook])
    plan = plan_submission(source.notebook, source.notebook, source.exercises)
    variants = {"full": plan.denied, "python only": _without_torch(plan.denied), "no deny": {}}
    times: dict[str, list[float]] = {name: [] for name in variants}
    with Zygote(["torch"] + preload_modules(plan.imports)) as helper:
        for _ in range(rounds):
            for name, denied in variants.items():
                job = {**plan.job(), "denied": denied}
                started = time.monotonic()
                result = helper.run(job, timeout_s, 4 * 2**30)
                times[name].append(time.monotonic() - started)
                rows = rows_from_run("bench", source, plan, result, timeout_s)
                lost = [row.feedback for row in rows if row.points != row.max_points]
                if lost:
                    raise RuntimeError(f"{notebook.name} ({name}): the solution lost points: {lost[:2]}")
    return times


def micro() -> dict[str, float]:
    """Microseconds per call: a (4, 64) softmax and a small training step, with and without the modes."""
    import torch

    from utils.grading.deny import CallMonitor, DenyTable

    table = DenyTable.build({"ex": ["torch.softmax", "torch.nn.functional.scaled_dot_product_attention"]})
    x = torch.randn(4, 64)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    optimiser = torch.optim.SGD(model.parameters(), lr=0.01)
    targets = torch.randint(8, (4,))

    def step() -> None:
        optimiser.zero_grad()
        torch.nn.functional.cross_entropy(model(x), targets).backward()
        optimiser.step()

    def per_call(work, watched: bool, calls: int = 2000) -> float:
        samples = []
        for _ in range(5):
            monitor = CallMonitor(table, lambda frame: False)
            if watched:
                monitor.start(["torch.softmax", "torch.nn.functional.scaled_dot_product_attention"])
            started = time.perf_counter()
            for _ in range(calls):
                work()
            samples.append((time.perf_counter() - started) / calls * 1e6)
            if watched:
                monitor.stop()
        return statistics.median(samples)

    softmax = lambda: torch.softmax(x, dim=-1)  # noqa: E731
    return {"softmax_us": per_call(softmax, False), "softmax_watched_us": per_call(softmax, True),
            "train_step_us": per_call(step, False, 500), "train_step_watched_us": per_call(step, True, 500)}


def main() -> None:
    """Parse the arguments, time every notebook's variants, print the table and one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", nargs="+", default=["09", "10"], help="notebook numbers (default: 09 10)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each variant, in turns (default 3)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per run (default 600)")
    args = parser.parse_args()
    print(f"LM_FAST={os.environ['LM_FAST']}, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    figures: dict[str, dict] = {}
    for number in args.notebooks:
        (notebook,) = sorted((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
        times = grade_times(notebook, args.rounds, args.timeout)
        medians = {name: statistics.median(values) for name, values in times.items()}
        extra = medians["full"] - medians["python only"]
        figures[notebook.name] = {"median_s": medians, "all_s": times, "overhead_s": extra,
                                  "overhead_percent": 100 * extra / medians["python only"]}
        for name, values in times.items():
            print(f"{notebook.name:40s} {name:12s} median {medians[name]:7.2f} s  "
                  f"(min {min(values):.2f}, max {max(values):.2f}, {len(values)} runs)")
        print(f"{notebook.name:40s} torch modes cost {extra:+.2f} s ({100 * extra / medians['python only']:+.1f} %)")
    figures["micro"] = micro()
    m = figures["micro"]
    print(f"softmax (4, 64): {m['softmax_us']:.1f} us, watched {m['softmax_watched_us']:.1f} us; "
          f"a small training step: {m['train_step_us']:.0f} us, watched {m['train_step_watched_us']:.0f} us")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
