"""The course on a GPU, in one command: every notebook in both modes, then time to quality against nanoGPT's train.py.

    python benchmarks/bench_gpu.py --nanogpt ~/nanoGPT                 # both parts on cuda (about 10 minutes on an H200)
    python benchmarks/bench_gpu.py --only notebooks                      # the notebooks only, full and fast mode
    python benchmarks/bench_gpu.py --only speed --nanogpt ~/nanoGPT      # the time-to-quality comparison only

notebooks: each notebook of notebooks/ run top to bottom in a fresh kernel with LM_DEVICE set, in full mode and in fast
mode (LM_FAST=1): seconds and whether it ran without error (benchmarks/bench_notebooks.py's runner).
speed: ours (benchmarks/bench_transformer_speed.py, Tiny Shakespeare, the recipe utils.recipes chooses for the device)
against nanoGPT's own train.py with the speed unit's model flags (4 layers x 4 heads x 128, context 64, batch 12,
2000 iterations, dropout 0), both on the same device, each timed as a whole process; target val <= 1.88 at a ratio
ours / nanoGPT <= 0.5. nanoGPT's code is not in this repository: --nanogpt names a checkout
(github.com/karpathy/nanoGPT); its data files are written there from the local corpus (benchmarks/nanogpt_data.py),
with no download. Prints one line per step and, last, ONE JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bench_notebooks import run_notebook  # noqa: E402  (next to this script)
from nanogpt_data import write_nanogpt_data  # noqa: E402

from utils.data import MIRROR_ENV_VAR, load_text  # noqa: E402

# The speed unit's model and data flags (benchmarks/reference_workload.py), on top of nanoGPT's shakespeare_char config.
NANOGPT_FLAGS = ["--compile=False", "--eval_iters=20", "--block_size=64", "--batch_size=12", "--n_layer=4",
                 "--n_head=4", "--n_embd=128", "--dropout=0.0", "--always_save_checkpoint=False"]
VAL_LINE = re.compile(r"step (\d+): train loss ([\d.]+), val loss ([\d.]+)")
TARGET_LOSS, TARGET_RATIO = 1.88, 0.5


def run_notebooks(paths: list[Path], device: str, modes: list[str], timeout_s: int) -> dict:
    """Each notebook in each mode on `device`: {mode: {name: {seconds, ok, error, peak_mib}}}."""
    results: dict = {}
    for mode in modes:
        os.environ["LM_DEVICE"] = device
        if mode == "fast":
            os.environ["LM_FAST"] = "1"
        else:
            os.environ.pop("LM_FAST", None)
        for path in paths:
            row = run_notebook(path, timeout_s)
            results.setdefault(mode, {})[path.stem] = row
            print(f"{mode:4} {path.stem}: {'ok' if row['ok'] else 'FAILED ' + str(row['error'])} in {row['seconds']} s",
                  flush=True)
    return results


def timed(command: list[str], cwd: Path, env: dict) -> tuple[float, str]:
    """Run `command` as a process of its own; (wall seconds, its stdout). Raises with its output tail if it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-1500:]}\n{done.stderr[-3000:]}")
    return seconds, done.stdout


def run_nanogpt(checkout: Path, device: str, max_iters: int, env: dict) -> dict:
    """nanoGPT's train.py with the speed unit's flags on `device`: process seconds and its last val loss."""
    if not (checkout / "train.py").is_file():
        raise FileNotFoundError(f"{checkout} has no train.py: pass a checkout of github.com/karpathy/nanoGPT")
    write_nanogpt_data(checkout, load_text("shakespeare"))
    eval_interval = min(250, max_iters)
    with tempfile.TemporaryDirectory(prefix="nanogpt-out-") as out_dir:
        command = [sys.executable, "train.py", "config/train_shakespeare_char.py", f"--device={device}",
                   f"--max_iters={max_iters}", f"--lr_decay_iters={max_iters}", f"--eval_interval={eval_interval}",
                   f"--out_dir={out_dir}", *NANOGPT_FLAGS]
        seconds, out = timed(command, checkout, env)
    evals = [(int(step), float(val)) for step, _, val in VAL_LINE.findall(out)]
    if not evals:
        raise RuntimeError(f"no 'step N: train loss X, val loss Y' line in nanoGPT's output:\n{out[-1500:]}")
    return {"seconds": round(seconds, 2), "val": evals[-1][1], "steps": evals[-1][0], "evals": evals}


def run_ours(device: str, steps: int | None, env: dict) -> dict:
    """bench_transformer_speed.py (no reference) on `device`: process seconds and our val loss."""
    command = [sys.executable, str(HERE / "bench_transformer_speed.py"), "--corpus", "shakespeare", "--no-reference",
               "--device", device] + ([] if steps is None else ["--steps", str(steps)])
    seconds, out = timed(command, ROOT, env)
    line = json.loads(out.strip().splitlines()[-1])
    return {"seconds": round(seconds, 2), "val": line["our_loss"]["shakespeare"]}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Budget: about 10 minutes on an H200 for both parts.")
    parser.add_argument("--only", choices=["notebooks", "speed"], default=None, help="run one part (default: both)")
    parser.add_argument("--device", default="cuda", help="cuda (default), cuda:N, mps or cpu")
    parser.add_argument("--nanogpt", type=Path, default=None, help="a checkout of nanoGPT (needed by the speed part)")
    parser.add_argument("--notebook", type=Path, action="append", default=None,
                        help="run this notebook (repeatable; default: every notebook of notebooks/)")
    parser.add_argument("--fast-only", action="store_true", help="notebooks in fast mode only")
    parser.add_argument("--timeout", type=int, default=900, help="seconds allowed per cell")
    parser.add_argument("--max-iters", type=int, default=2000, help="nanoGPT's iterations (the speed unit: 2000)")
    parser.add_argument("--our-steps", type=int, default=None, help="override our recipe's steps (tests, probes)")
    args = parser.parse_args(argv)
    if args.device.split(":")[0] == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda, but CUDA is not available here (use --device cpu to try the script)")
    if args.only != "notebooks" and args.nanogpt is None:
        parser.error("the speed part needs --nanogpt PATH (a checkout of github.com/karpathy/nanoGPT), or use --only notebooks")
    os.environ.setdefault(MIRROR_ENV_VAR, str(ROOT.parent / "shared" / "data"))
    env = {**os.environ, "LM_DEVICE": args.device, "PYTHONPATH": str(ROOT)}
    env.pop("LM_FAST", None)
    result: dict = {"benchmark": "gpu", "device": args.device, "torch": torch.__version__,
                    "device_name": torch.cuda.get_device_name(0) if args.device.startswith("cuda") else args.device}
    if args.only != "speed":
        paths = args.notebook or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
        result["notebooks"] = run_notebooks(paths, args.device, ["fast"] if args.fast_only else ["full", "fast"],
                                            args.timeout)
        result["notebooks_ok"] = all(row["ok"] for mode in result["notebooks"].values() for row in mode.values())
    if args.only != "notebooks":
        nanogpt = run_nanogpt(args.nanogpt.resolve(), args.device, args.max_iters, env)
        print(f"nanoGPT: val {nanogpt['val']:.4f} after {nanogpt['steps']} iterations in {nanogpt['seconds']:.1f} s", flush=True)
        ours = run_ours(args.device, args.our_steps, env)
        print(f"ours: val {ours['val']:.4f} in {ours['seconds']:.1f} s", flush=True)
        ratio = ours["seconds"] / nanogpt["seconds"]
        result.update({"nanogpt_s": nanogpt["seconds"], "nanogpt_val": nanogpt["val"], "ours_s": ours["seconds"],
                       "ours_val": ours["val"], "ratio": round(ratio, 4),
                       "meets_target": bool(ours["val"] <= TARGET_LOSS and ratio <= TARGET_RATIO)})
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
