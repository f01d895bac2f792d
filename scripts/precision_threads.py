"""Do the notebooks' asserts hold whatever the number of threads? Run notebooks at 1, 2 and 4 threads and tabulate.

    python scripts/precision_threads.py                       # the CPU tier's named notebooks, fast and full mode
    python scripts/precision_threads.py --only 04 07 --modes fast --threads 1 4 --precision tf32

Matrix products split their sums among threads, so the last bits of a result depend on how many there are; an
equality check tighter than that rounding passes on one machine and fails on another. Each run is a fresh kernel
with OMP_NUM_THREADS set and a first cell that calls torch.set_num_threads and checks it took; the checkpoint
folder is new and empty for each run, so every model is trained in that run. $LM_PRECISION (--precision) puts the
kernel in the CPU tier (utils.device). Not part of CI: a table printed, then one JSON line; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.test_precision_tier import TIER_NOTEBOOKS  # noqa: E402  (the named subset: one list, in the tier's test)

NOTEBOOKS = ROOT / "notebooks"


def _first_error(notebook: nbformat.NotebookNode) -> tuple[str, str]:
    """The id of the first cell with an error output, and that error's last line."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                return cell.get("id", "?"), f"{output.get('ename')}: {output.get('evalue')}"[:300]
    return "?", "no error output recorded"


def run_at_threads(path: Path, threads: int, fast: bool, precision: str, timeout_s: int) -> dict:
    """Execute `path` in a fresh kernel with `threads` torch threads; ok, seconds and, if failed, the cell and error."""
    notebook = nbformat.read(path, as_version=4)
    pin = nbformat.v4.new_code_cell(f"import torch\ntorch.set_num_threads({threads})\n"
                                    f"assert torch.get_num_threads() == {threads}, torch.get_num_threads()")
    notebook.cells.insert(0, pin)
    with tempfile.TemporaryDirectory(prefix="lm-threads-") as checkpoints:
        env = {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads), "LM_FAST": "1" if fast else "0",
               "LM_CHECKPOINT_DIR": checkpoints, "LM_PRECISION": precision}
        saved = {key: os.environ.get(key) for key in env}
        os.environ.update(env)  # the kernel inherits this process's environment
        start = time.perf_counter()
        try:
            NotebookClient(notebook, timeout=timeout_s, kernel_name="python3",
                           resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
            result = {"ok": True}
        except Exception:  # a failing cell (or a time-out): record it and go on
            cell, error = _first_error(notebook)
            result = {"ok": False, "cell": cell, "error": error}
        finally:
            for key, value in saved.items():
                os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)
    return {**result, "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=[n.split("_")[0] for n in TIER_NOTEBOOKS],
                        help="notebook numbers or name parts (default: the CPU tier's named notebooks)")
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2, 4])
    parser.add_argument("--modes", nargs="+", choices=("fast", "full"), default=["fast", "full"])
    parser.add_argument("--precision", choices=("float32", "tf32", "bf16"), default="float32",
                        help="$LM_PRECISION of the kernels (float32: no tier)")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds allowed per cell")
    args = parser.parse_args()
    if any(t < 1 for t in args.threads):
        parser.error("--threads must be positive")
    paths = [p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if any(part in p.name for part in args.only)]
    if not paths:
        parser.error(f"no notebook in {NOTEBOOKS} matches {args.only}")
    shared = ROOT.parent / "shared" / "data"
    if "LM_DATA_MIRROR" not in os.environ and shared.is_dir():
        os.environ["LM_DATA_MIRROR"] = str(shared)
    rows = []
    print(f"{'notebook':<32} {'mode':<5} {'threads':>7} {'seconds':>8}  result (LM_PRECISION={args.precision})", flush=True)
    for path in paths:
        for mode in args.modes:
            for threads in args.threads:
                row = {"notebook": path.stem, "mode": mode, "threads": threads,
                       **run_at_threads(path, threads, mode == "fast", args.precision, args.timeout)}
                rows.append(row)
                verdict = "ok" if row["ok"] else f"FAILED in {row['cell']}: {row['error']}"
                print(f"{path.stem:<32} {mode:<5} {threads:>7} {row['seconds']:>8.1f}  {verdict}", flush=True)
    print(json.dumps({"script": "precision_threads", "precision": args.precision, "cpu_count": os.cpu_count(),
                      "load_average_1min": round(os.getloadavg()[0], 2), "runs": rows,
                      "all_ok": all(r["ok"] for r in rows)}))


if __name__ == "__main__":
    main()
