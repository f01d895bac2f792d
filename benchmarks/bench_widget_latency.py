"""Widget latency in a real browser: key press (or click) on the main control -> updated figure drawn.

Runs each widget notebook in JupyterLab (headless Chromium, fast mode), then moves each widget's
main control N times (default 20) and times, in the page, from the keydown/mousedown event to the
frame after the new figure image has loaded. A bare reference widget (a small FigureWidget and an
IntSlider, `lm-demo-widget`) runs side by side to show the cost of the machinery itself.
Saves a screenshot of each widget to docs/screenshots/. Target: median <= 100 ms, max <= 250 ms.

    python benchmarks/bench_widget_latency.py [--moves 20] [--screenshots docs/screenshots] [notebook ...]

Last line: one JSON object {"widgets": {class: {"median_ms", "max_ms", ...}}, ...}.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # run as a script: make `tests.browser` importable
    sys.path.insert(0, str(REPO_ROOT))

from tests.browser.demo_notebooks import DEMO_WIDGET_CLASS, write_demo_notebook  # noqa: E402
from tests.browser.lab import (  # noqa: E402
    NOTEBOOKS_DIR,
    WIDGET_NOTEBOOKS,
    browser_unavailable_reason,
    launch_chromium,
    open_notebook,
    start_lab,
    start_run_all,
    timed_move,
    wait_for_run,
)

TARGET_MEDIAN_MS = 100.0
TARGET_MAX_MS = 250.0


def save_small_png(png: bytes, path: Path, colors: int = 128) -> int:
    """Write a screenshot as a palette PNG (a fraction of the size); returns the bytes written."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=colors)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    return path.stat().st_size


def measure(page, widget_class: str, moves: int) -> list[float]:
    """Milliseconds from input to drawn figure for `moves` moves of the widget's main control."""
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    timed_move(page, widget_class)  # warm-up: first comm round trip, image decoder
    return [timed_move(page, widget_class) for _ in range(moves)]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON line last."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--screenshots", type=Path, default=REPO_ROOT / "docs" / "screenshots")
    parser.add_argument("notebooks", nargs="*", help="widget notebooks (default: every one in notebooks/)")
    args = parser.parse_args(argv)
    names = args.notebooks or [name for name in WIDGET_NOTEBOOKS if (NOTEBOOKS_DIR / name).is_file()]
    unknown = [name for name in names if name not in WIDGET_NOTEBOOKS]
    if unknown:
        raise ValueError(f"{unknown} have no known widget; known: {sorted(WIDGET_NOTEBOOKS)}")
    if args.moves < 1:
        raise ValueError(f"--moves must be at least 1, got {args.moves}")
    reason = browser_unavailable_reason()
    if reason:
        print(json.dumps({"skipped": reason}))
        return 1
    results: dict[str, dict] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lm-bench-") as tmp:
        source = Path(tmp)
        for name in names:
            (source / name).write_bytes((NOTEBOOKS_DIR / name).read_bytes())
        demo = write_demo_notebook(source).name
        plan = {demo: [DEMO_WIDGET_CLASS], **{name: WIDGET_NOTEBOOKS[name] for name in names}}
        with start_lab(list(plan), source=source) as server, launch_chromium() as browser:
            pages = {name: open_notebook(browser, server, name) for name in plan}
            for page in pages.values():
                start_run_all(page)
            for name, page in pages.items():
                run = wait_for_run(page, timeout_s=300)
                if run["errors"] or run["executed"] != run["total"]:
                    print(f"{name}: run failed ({run}); skipped", flush=True)
                    continue
                for widget_class in plan[name]:
                    if page.locator(f".{widget_class} .lm-main-control").count() == 0:
                        print(f"{name}: no .{widget_class} .lm-main-control; skipped", flush=True)
                        continue
                    times = measure(page, widget_class, args.moves)
                    median, worst = statistics.median(times), max(times)
                    results[widget_class] = {
                        "notebook": name,
                        "median_ms": round(median, 1),
                        "max_ms": round(worst, 1),
                        "n": len(times),
                        "meets_target": median <= TARGET_MEDIAN_MS and worst <= TARGET_MAX_MS,
                    }
                    print(f"{widget_class:28s} median {median:6.1f} ms  max {worst:6.1f} ms  ({name})", flush=True)
                    if widget_class != DEMO_WIDGET_CLASS and args.screenshots:
                        png = page.locator(f".{widget_class}").first.screenshot()
                        size = save_small_png(png, args.screenshots / f"{Path(name).stem}.png")
                        print(f"    screenshot {args.screenshots / (Path(name).stem + '.png')} ({size // 1024} KiB)")
    course = {k: v for k, v in results.items() if k != DEMO_WIDGET_CLASS}
    summary = {
        "widgets": results,
        "target": {"median_ms": TARGET_MEDIAN_MS, "max_ms": TARGET_MAX_MS},
        "all_meet_target": bool(course) and all(v["meets_target"] for v in course.values()),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
