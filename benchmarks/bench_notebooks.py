"""Run every notebook top to bottom in a fresh kernel and report its wall time and peak memory.

    python benchmarks/bench_notebooks.py            # full settings (what students run)
    python benchmarks/bench_notebooks.py --fast     # the test suite's fast settings
    python benchmarks/bench_notebooks.py --only 07  # notebooks whose name contains "07"

Notebooks 09-11 reuse trained models from the checkpoint cache (utils.zoo); by default the run
starts from an empty cache in a temporary folder and fills it in course order, as a student's
first pass does (--checkpoint-dir DIR keeps it, or reuses a filled one).
The kernel's memory (resident set size of the kernel and its children) is sampled every 50 ms.
Targets on a 2-core laptop-class CPU: each notebook <= 180 s and <= 2 GiB, all <= 600 s.
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
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_SECONDS, NOTEBOOK_MIB, TOTAL_SECONDS = 180, 2048, 600


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
    args = parser.parse_args()
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
    results = {}
    for path in paths:
        results[path.stem] = result = run_notebook(path, args.timeout)
        status = "ok" if result["ok"] else f"FAILED ({result['error']})"
        print(f"{path.stem:<36} {result['seconds']:7.1f} s {result['peak_mib']:6d} MiB  {status}", flush=True)
    total = round(sum(r["seconds"] for r in results.values()), 1)
    within = (
        all(r["ok"] and r["seconds"] <= NOTEBOOK_SECONDS and r["peak_mib"] <= NOTEBOOK_MIB for r in results.values())
        and total <= TOTAL_SECONDS
    )
    print(json.dumps({
        "benchmark": "notebooks", "mode": "fast" if args.fast else "full", "cpu_count": os.cpu_count(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"), "notebooks": results, "total_seconds": total,
        "targets": {"notebook_seconds": NOTEBOOK_SECONDS, "notebook_mib": NOTEBOOK_MIB, "total_seconds": TOTAL_SECONDS},
        "within_targets": within, "checkpoint_cache": "empty at start" if scratch else str(args.checkpoint_dir),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }))
    if scratch is not None:
        scratch.cleanup()


if __name__ == "__main__":
    main()
