"""Run every notebook top to bottom in a fresh kernel and report its wall time and peak memory.

    python benchmarks/bench_notebooks.py            # full settings (what students run)
    python benchmarks/bench_notebooks.py --fast     # the test suite's fast settings
    python benchmarks/bench_notebooks.py --only 07  # notebooks whose name contains "07"

Notebooks 09-11 reuse trained models from the checkpoint cache (utils.zoo); by default the run
starts from an empty cache in a temporary folder and fills it in course order, as a student's
first pass does (--checkpoint-dir DIR keeps it, or reuses a filled one).
The kernel's memory (resident set size of the kernel and its children) is sampled every 50 ms.

Times are also given in the speed unit U (benchmarks/reference_workload.py: nanoGPT's CPU recipe's
wall time on this machine, from the frozen workload timed in the same run, before the notebooks
and with the same threads), so that a slow or busy machine neither fails nor passes the targets:
each notebook <= 0.5 U in full mode and <= 0.2 U in fast mode, all of them <= 4 U in full mode,
and <= 2 GiB each. --unit-seconds S reuses a U measured elsewhere (same machine, same hour);
--unit-scale F (0.125 to 1) times a shorter workload (F of nanoGPT's 2000 iterations, evaluations
still every 250) and scales it up, a rougher U (the JSON says which). The workload is timed again after the
notebooks (--unit-once: before only) and the costs use the mean of the two: a machine whose speed changes
during the run (a neighbour's job, a slower hour) moves both the notebooks and the unit, and a drift of more
than 20% between the two timings is printed as a warning. The verdict is printed; nothing here asserts on time.
The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil
import torch
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_workload as reference  # noqa: E402  (the frozen workload, next to this script)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_MIB = 2048
TARGETS_U = {"full": {"notebook": 0.5, "total": 4.0}, "fast": {"notebook": 0.2, "total": None}}


def measure_unit(text_path: Path, scale: float = 1.0) -> dict:
    """U in seconds: the frozen nanoGPT workload, timed here (scale < 1: fewer iterations, scaled up)."""
    iters = max(1, round(2000 * scale))
    # evaluations stay every 250 iterations, so their share of the work stays close to the full run's (9 in 2001)
    ran = reference.nanogpt_char_run(text_path.read_text(encoding="utf-8"), max_iters=iters)
    seconds = ran.seconds / scale if scale != 1 else ran.seconds
    return {"unit_s": round(reference.speed_unit(seconds), 3), "workload_s": round(ran.seconds, 3), "scale": scale,
            "source": "measured in this run" + ("" if scale == 1 else f" at scale {scale} (rough)")}


DRIFT_WARNING = 0.2  # |after / before - 1| above this: the machine's speed changed during the run


def bracketed_unit(before: dict, after: dict) -> dict:
    """U as the mean of the workload timed before and after the notebooks, with both timings and their drift."""
    unit_s = (before["unit_s"] + after["unit_s"]) / 2
    drift = after["unit_s"] / before["unit_s"] - 1
    return {**before, "unit_s": round(unit_s, 3), "unit_before_s": before["unit_s"], "unit_after_s": after["unit_s"],
            "drift": round(drift, 4), "source": before["source"] + ", before and after the notebooks (mean)"}


def verdicts(results: dict[str, dict], unit_s: float, mode: str) -> dict:
    """Each notebook's cost in U and whether it and the total meet the targets of `mode` ("full" or "fast")."""
    limits = TARGETS_U[mode]
    notebooks = {}
    for name, result in results.items():
        cost = result["seconds"] / unit_s
        notebooks[name] = {"cost_u": round(cost, 4), "ok": bool(result["ok"] and cost <= limits["notebook"] and result["peak_mib"] <= NOTEBOOK_MIB)}
    total_u = sum(result["seconds"] for result in results.values()) / unit_s
    total_ok = limits["total"] is None or total_u <= limits["total"]
    return {"notebooks": notebooks, "total_u": round(total_u, 4), "total_ok": bool(total_ok),
            "within_targets": bool(total_ok and all(v["ok"] for v in notebooks.values()))}


class PeakMemory:
    """Samples the summed RSS of this process's children (the kernel) in a background thread."""

    def __init__(self, interval_s: float = 0.05):
        self.interval_s, self.peak_bytes, self._stop = interval_s, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            total = 0
            for child in me.children(recursive=True):
                try:
                    total += child.memory_info().rss
                except psutil.Error:
                    pass
            self.peak_bytes = max(self.peak_bytes, total)
            self._stop.wait(self.interval_s)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def run_notebook(path: Path, timeout_s: int) -> dict:
    """Execute one notebook in a fresh kernel; return seconds, peak MiB and whether it ran without error."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=timeout_s, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    error = None
    start = time.perf_counter()
    with PeakMemory() as memory:
        try:
            client.execute()
        except Exception as exc:  # report it and go on with the other notebooks
            error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1][:300] if str(exc).strip() else ''}"
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 1), "peak_mib": round(memory.peak_bytes / 2**20), "ok": error is None, "error": error}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="use the test suite's fast settings (LM_FAST=1)")
    parser.add_argument("--only", default="", help="run only notebooks whose file name contains this")
    parser.add_argument("--timeout", type=int, default=900, help="seconds allowed per cell")
    parser.add_argument("--checkpoint-dir", type=Path, default=None,
                        help="checkpoint cache for the zoo (default: a new, empty temporary folder)")
    parser.add_argument("--unit-seconds", type=float, default=None, help="U measured elsewhere, in seconds (skips the workload)")
    parser.add_argument("--unit-scale", type=float, default=1.0, help="time this share of the workload and scale up (rougher U)")
    parser.add_argument("--unit-once", action="store_true", help="time the workload before the notebooks only (not after too)")
    args = parser.parse_args()
    if args.unit_seconds is not None and args.unit_seconds <= 0 or not 0.125 <= args.unit_scale <= 1:
        parser.error("--unit-seconds must be positive and --unit-scale in [0.125, 1]")
    os.environ["LM_FAST"] = "1" if args.fast else "0"
    scratch = None
    if args.checkpoint_dir is None:
        scratch = tempfile.TemporaryDirectory(prefix="lm-bench-checkpoints-")
        args.checkpoint_dir = Path(scratch.name)
    os.environ["LM_CHECKPOINT_DIR"] = str(args.checkpoint_dir)
    shared = ROOT.parent / "shared" / "data"
    if "LM_DATA_MIRROR" not in os.environ and shared.is_dir():
        os.environ["LM_DATA_MIRROR"] = str(shared)
    paths = [p for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) if args.only in p.name]
    if not paths:
        sys.exit(f"no notebook in {ROOT / 'notebooks'} matches {args.only!r}")
    mode = "fast" if args.fast else "full"
    load_before = round(os.getloadavg()[0], 2)
    if args.unit_seconds is not None:
        unit = {"unit_s": args.unit_seconds, "source": "--unit-seconds"}
    else:
        text = Path(os.environ.get("LM_DATA_MIRROR", shared)) / "tinyshakespeare.txt"
        if not text.exists():
            sys.exit(f"the speed unit needs {text} (set LM_DATA_MIRROR) or --unit-seconds")
        unit = measure_unit(text, args.unit_scale)
        print(f"speed unit U = {unit['unit_s']:.1f} s ({unit['source']}; torch threads {torch.get_num_threads()})", flush=True)
    unit_s = unit["unit_s"]
    results = {}
    for path in paths:
        results[path.stem] = result = run_notebook(path, args.timeout)
        status = "ok" if result["ok"] else f"FAILED ({result['error']})"
        print(f"{path.stem:<36} {result['seconds']:7.1f} s = {result['seconds'] / unit_s:.3f} U {result['peak_mib']:6d} MiB  {status}", flush=True)
    if args.unit_seconds is None and not args.unit_once:
        unit = bracketed_unit(unit, measure_unit(text, args.unit_scale))
        unit_s = unit["unit_s"]
        print(f"speed unit again after the notebooks: {unit['unit_after_s']:.1f} s (drift {100 * unit['drift']:+.1f}%); "
              f"the costs below use the mean, U = {unit_s:.1f} s", flush=True)
        if abs(unit["drift"]) > DRIFT_WARNING:
            print(f"WARNING: the machine's speed changed by {100 * unit['drift']:+.0f}% during the run: "
                  "its costs in U are rough; rerun on a quieter machine for figures to compare", flush=True)
        for name, result in results.items():
            print(f"{name:<36} {result['seconds']:7.1f} s = {result['seconds'] / unit_s:.3f} U", flush=True)
    total = round(sum(r["seconds"] for r in results.values()), 1)
    verdict = verdicts(results, unit_s, mode)
    limits = TARGETS_U[mode]
    for name, v in verdict["notebooks"].items():
        if not v["ok"]:
            print(f"NOT MET: {name} costs {v['cost_u']:.3f} U (target <= {limits['notebook']} U, {NOTEBOOK_MIB} MiB, no error)")
    total_target = f"target <= {limits['total']} U" if limits["total"] is not None else "no total target in this mode"
    print(f"total {total:.1f} s = {verdict['total_u']:.3f} U ({total_target}); each notebook <= {limits['notebook']} U: "
          f"{'MET' if verdict['within_targets'] else 'NOT MET'}")
    for name, result in results.items():
        result["cost_u"] = verdict["notebooks"][name]["cost_u"]
    print(json.dumps({
        "benchmark": "notebooks", "mode": mode, "cpu_count": os.cpu_count(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "threads": torch.get_num_threads(), "torch": torch.__version__,
        "notebooks": results, "total_seconds": total, "total_u": verdict["total_u"], "unit_s": unit_s, "unit": unit,
        "targets_u": limits, "notebook_mib": NOTEBOOK_MIB,
        "within_targets": verdict["within_targets"], "checkpoint_cache": "empty at start" if scratch else str(args.checkpoint_dir),
        "load_average_1min": [load_before, round(os.getloadavg()[0], 2)],
    }))
    if scratch is not None:
        scratch.cleanup()


if __name__ == "__main__":
    main()
