"""Widget latency in a real browser: one row per interaction, from the input event to the updated view.

Runs each widget notebook in JupyterLab (headless Chromium, fast mode) and then times each
interaction N times (default 20), in the page: from the first input event (keydown, mousedown,
mouseover or input, caught in the capture phase) to the animation frame after the widget's
figure changed (a kernel-drawn image loaded, or a browser-drawn view's data-lm-frame moved on).

- browser-side interactions (no kernel round trip: hover a token, arrow keys, head / axis
  choice, T / k / p moves): target median <= 16 ms, max <= 50 ms;
- kernel-side ones (a new text that runs the model; the kernel-drawn widgets' main controls):
  target median <= 100 ms, max <= 250 ms; and, as the developers' guide asks of targets on machines
  whose speed moves, relative to the bare reference widget timed just before: median <= 1.48 x its
  median, max <= 3.69 x (RELATIVE_KERNEL_TARGET: the same targets on the 2026-12-02 machine).

A bare reference widget (a small FigureWidget and an IntSlider, `lm-demo-widget`) runs side by
side to show the cost of the machinery itself; it is timed first and again before each
notebook's widgets. Waits follow the notebooks' real run time: the
run gets --run-timeout seconds (default 900) with a progress line every 15 s, and a widget then
gets twice the measured run time (at least 60 s) to appear. The notebooks run side by side, and
no widget is timed before every run has ended (a kernel still training would load the machine). The rows of the mask and positional
widgets come from benchmarks/widget_latency_rows_mask_positional.py when that file exists (its
`rows(page, lab_url) -> list[dict]`, called once per notebook page of 06 and 08); otherwise their
main control is timed like the other kernel-drawn widgets. Screenshots go to docs/screenshots/.

    python benchmarks/bench_widget_latency.py [--moves 20] [--screenshots docs/screenshots] [notebook ...]

Before timing, the script waits (--settle, default up to 90 s) until the notebooks' runs have left the CPU
(below 25% busy over 2 s). Last line: one JSON object {"rows": [...], "all_meet_target": ..., "load_average_1min": ...};
each row carries the 1-minute load average (which lags by minutes) and the share of the machine's CPU that was
busy while its widget was timed (/proc/stat; the browser and kernel being timed included).
"""

from __future__ import annotations

import argparse
import importlib.util
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
    timed_action,
    timed_move,
    wait_for_run,
)

TARGETS = {"browser": (16.0, 50.0), "kernel": (100.0, 250.0)}  # (median, max) ms
# The kernel target as multiples of the reference widget's median timed just before (the developers' guide: targets
# are ratios to a reference measured in the same run, the machines' speed moves by up to 1.8x): 100 and 250 ms over the 67.7 ms the reference took in the run
# of 2026-12-02 15:38, in which every row met the targets in ms.
RELATIVE_KERNEL_TARGET = (round(100.0 / 67.7, 2), round(250.0 / 67.7, 2))  # (median, max) x the reference's median
OTHER_ROWS = Path(__file__).resolve().parent / "widget_latency_rows_mask_positional.py"
OTHER_WIDGETS = ("lm-mask-widget", "lm-positional-widget")


def save_small_png(png: bytes, path: Path, colors: int = 128) -> int:
    """Write a screenshot as a palette PNG (a fraction of the size); returns the bytes written."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=colors)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    return path.stat().st_size


def cpu_jiffies() -> tuple[int, int] | None:
    """(busy, total) CPU time of the whole machine so far, in clock ticks (/proc/stat; None off Linux)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def busy_share(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """Share of the machine's CPU time that was busy between two cpu_jiffies() readings (None if unknown)."""
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round((after[0] - before[0]) / (after[1] - before[1]), 3)


def settle(max_s: float, below: float = 0.25, window_s: float = 2.0) -> float | None:
    """Wait (at most max_s) until the machine's CPU is busy less than `below` of a `window_s` window; the last share."""
    deadline = time.monotonic() + max_s
    share = None
    while True:
        before = cpu_jiffies()
        time.sleep(window_s)
        share = busy_share(before, cpu_jiffies())
        if share is None or share < below or time.monotonic() > deadline:
            return share


def row(widget: str, interaction: str, side: str, times: list[float], notebook: str) -> dict:
    """One table row: median and max of `times` against the target of its side."""
    target_median, target_max = TARGETS[side]
    median, worst = statistics.median(times), max(times)
    return {"widget": widget, "interaction": interaction, "side": side, "notebook": notebook,
            "median_ms": round(median, 1), "max_ms": round(worst, 1), "n": len(times),
            "meets_target": median <= target_median and worst <= target_max}


def over_reference(rows: list[dict], reference_class: str) -> float | None:
    """Compare each kernel-side row with the bare reference widget timed last before it; the reference's median.

    The machine's speed moves from day to day and within minutes (the reference's median: 64.7 ms on 2026-12-02,
    98-154 ms in five runs within an hour on 12-03), so the reference is timed again before each notebook's widgets.
    It is the widget machinery alone (a slider driving a small figure, no course code). Each kernel row gets
    `reference_median_ms`; `over_reference_ms`, what the widget adds to that machinery (negative: its own path is
    lighter); and `meets_relative_target`: median and max within RELATIVE_KERNEL_TARGET times the reference's median.
    Returns the median of the reference's medians, or None if it was never timed.
    """
    medians, current = [], None
    for item in rows:
        if item["widget"] == reference_class:
            current = item["median_ms"]
            medians.append(current)
        elif item["side"] == "kernel" and current is not None:
            most_median, most_max = (current * factor for factor in RELATIVE_KERNEL_TARGET)
            item["reference_median_ms"] = current
            item["over_reference_ms"] = round(item["median_ms"] - current, 1)
            item["meets_relative_target"] = item["median_ms"] <= most_median and item["max_ms"] <= most_max
    return round(statistics.median(medians), 1) if medians else None


def all_meet_relative_target(course_rows: list[dict]) -> bool:
    """Browser rows within their targets in ms, kernel rows within the reference timed before them (over_reference)."""
    return bool(course_rows) and all(
        item["meets_target"] if item["side"] == "browser" else item.get("meets_relative_target", False)
        for item in course_rows)


def print_row(item: dict) -> None:
    """One row as a line of the table printed while the benchmark runs."""
    busy = item.get("cpu_busy_share")
    print(f"{item['widget']:24s} {item['interaction']:42s} {item['side']:7s} median {item['median_ms']:6.1f} ms"
          f"  max {item['max_ms']:6.1f} ms  {'ok' if item['meets_target'] else 'MISSES TARGET'}"
          f"  (load {item.get('load_average_1min')}, CPU {'?' if busy is None else f'{100 * busy:.0f}%'} busy)", flush=True)


def time_reference(page, moves: int, interaction: str, notebook: str) -> dict:
    """The bare reference widget's row: its slider moved `moves` times (after a warm-up) on its page."""
    page.bring_to_front()
    page.locator(f".{DEMO_WIDGET_CLASS}").first.scroll_into_view_if_needed()
    cpu_before = cpu_jiffies()
    timed_move(page, DEMO_WIDGET_CLASS)  # warm-up
    item = row(DEMO_WIDGET_CLASS, interaction, "kernel", [timed_move(page, DEMO_WIDGET_CLASS) for _ in range(moves)], notebook)
    item["load_average_1min"] = round(os.getloadavg()[0], 2)
    item["cpu_busy_share"] = busy_share(cpu_before, cpu_jiffies())
    return item


def repeat(page, widget_class: str, actions, moves: int, timeout_s: float, **kwargs) -> list[float]:
    """Time `moves` actions (cycling through `actions`, each changing the view) after one warm-up."""
    timed_action(page, widget_class, actions[0], timeout_s, **kwargs)  # warm-up: first comm round trip, decoders, JIT
    return [timed_action(page, widget_class, actions[(i + 1) % len(actions)], timeout_s, **kwargs) for i in range(moves)]


def measured(widget: str, interaction: str, side: str, notebook: str, measure) -> dict:
    """The row of `measure()` (a list of ms), or a row saying why it failed (the others are still measured)."""
    try:
        return row(widget, interaction, side, measure(), notebook)
    except Exception as error:  # noqa: BLE001 (Playwright's and ours): reported in the table
        print(f"{widget} {interaction}: measuring failed: {error}", flush=True)
        return {"widget": widget, "interaction": interaction, "side": side, "notebook": notebook, "median_ms": float("nan"),
                "max_ms": float("nan"), "n": 0, "meets_target": False, "error": str(error)[:500]}



def attention_rows(page, moves: int, notebook: str) -> list[dict]:
    """Hover, arrow keys, head choice (browser) and a new text (kernel: the models run)."""
    cls = "lm-attention-widget"
    root = page.locator(f".{cls}").first
    tokens = root.locator(".lm-attn-token")
    n = tokens.count()
    picks = [(3 + 5 * i) % n for i in range(7)]
    hovers = [lambda j=j: tokens.nth(j).hover() for j in picks]
    rows = [measured(cls, "hover a query token", "browser", notebook, lambda: repeat(page, cls, hovers, moves, 30))]
    strip = root.locator(".lm-attn-tokens")
    keys = [lambda: page.keyboard.press("ArrowLeft"), lambda: page.keyboard.press("ArrowRight")]

    def arrow_keys() -> list[float]:
        strip.focus()
        return repeat(page, cls, keys, moves, 30)

    rows.append(measured(cls, "arrow key moves the query", "browser", notebook, arrow_keys))
    select = root.locator("select.lm-attn-head")
    heads = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    current = heads.index(select.input_value())
    order = heads[current + 1:] + heads[:current + 1]  # every pick differs from the one before (the current first)
    picks = [lambda h=h: select.select_option(h) for h in order]
    rows.append(measured(cls, "choose a head (or all)", "browser", notebook, lambda: repeat(page, cls, picks, moves, 30)))
    box = root.locator("input.lm-attn-text")
    text = box.input_value()

    def new_texts() -> list[float]:
        if select.input_value() == "-1":
            select.select_option(heads[1])
        times = []
        for i in range(moves + 1):  # every text new (ever shorter prefixes, then suffixes), so the models really run
            box.fill(text[: len(text) - 1 - i] if len(text) - 1 - i >= 4 else text[i - len(text) + 5:])
            times.append(timed_action(page, cls, lambda: box.press("Enter"), 60, events=("keydown",)))
        return times[1:]

    rows.append(measured(cls, "new text (kernel runs the models)", "kernel", notebook, new_texts))
    return rows


def temperature_rows(page, moves: int, notebook: str) -> list[dict]:
    """T, top-k and top-p key presses and the axis toggle: all recomputed in the browser."""
    cls = "lm-temperature-widget"
    root = page.locator(f".{cls}").first
    rows = []
    for name, selector in [("T slider key", "input.lm-temperature"), ("top-k slider key", "input.lm-top-k"),
                           ("top-p slider key", "input.lm-top-p")]:
        def keys_on(selector=selector) -> list[float]:
            root.locator(selector).focus()
            if selector == "input.lm-top-p":  # from off (1.0) into the range where p cuts
                page.keyboard.press("End")
                for _ in range(5):
                    page.keyboard.press("ArrowLeft")
            if selector == "input.lm-top-k":
                page.keyboard.press("Home")
                page.keyboard.press("ArrowRight")
            keys = [lambda: page.keyboard.press("ArrowRight"), lambda: page.keyboard.press("ArrowLeft")]
            return repeat(page, cls, keys, moves, 30)

        rows.append(measured(cls, name, "browser", notebook, keys_on))
    current = root.locator("button.lm-active[data-view]").get_attribute("data-view")
    views = ["log", "cumulative", "linear"]
    views = views[views.index(current) + 1:] + views[: views.index(current) + 1]
    clicks = [lambda v=v: root.locator(f"button[data-view='{v}']").click() for v in views]
    rows.append(measured(cls, "axis toggle (linear / log / cumulative), from click", "browser", notebook,
                         lambda: repeat(page, cls, clicks, moves, 30, events=("click",))))
    return rows


def other_rows(page, lab_url: str, notebook: str) -> list[dict] | None:
    """The mask / positional widgets' rows from their own module, if it exists (None otherwise)."""
    if not OTHER_ROWS.is_file():
        return None
    spec = importlib.util.spec_from_file_location("widget_latency_rows_mask_positional", OTHER_ROWS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = []
    for item in module.rows(page, lab_url):
        item = dict(item)
        item.setdefault("notebook", notebook)
        side = item.get("side", "kernel")
        target_median, target_max = TARGETS[side]
        item.setdefault("meets_target", item["median_ms"] <= target_median and item["max_ms"] <= target_max)
        result.append(item)
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON line last."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--screenshots", type=Path, default=REPO_ROOT / "docs" / "screenshots")
    parser.add_argument("--run-timeout", type=float, default=900.0, help="seconds the notebooks may run (default 900)")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads in the kernels (default 1, as the test suite: on a loaded machine more cost far more)")
    parser.add_argument("--settle", type=float, default=90.0,
                        help="after the runs, wait up to this many seconds for the CPU to fall below 25%% busy (default 90)")
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
    rows: list[dict] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lm-bench-") as tmp:
        source = Path(tmp)
        for name in names:
            (source / name).write_bytes((NOTEBOOKS_DIR / name).read_bytes())
        demo = write_demo_notebook(source).name
        plan = {demo: [DEMO_WIDGET_CLASS], **{name: WIDGET_NOTEBOOKS[name] for name in names}}
        threads = {"OMP_NUM_THREADS": str(args.threads), "MKL_NUM_THREADS": str(args.threads)}
        with start_lab(list(plan), source=source, env=threads) as server, launch_chromium() as browser:
            lab_url = f"{server.base_url}/lab?token={server.token}"
            pages = {name: open_notebook(browser, server, name) for name in plan}
            run_started = time.perf_counter()
            for page in pages.values():
                start_run_all(page)
            runs = {}
            for name, page in pages.items():  # every run ends before any widget is timed: no kernel still trains
                left = args.run_timeout - (time.perf_counter() - run_started)
                runs[name] = wait_for_run(page, timeout_s=max(left, 30.0), progress=lambda s, name=name: print(
                    f"  {name}: {s['executed']}/{s['total']} cells run, {s['pending']} queued or running "
                    f"({time.perf_counter() - run_started:.0f} s)", flush=True))
                print(f"{name}: ran in {time.perf_counter() - run_started:.0f} s ({runs[name]})", flush=True)
            run_s = time.perf_counter() - run_started
            if args.settle > 0:  # the runs' own load fades before any timing (the load average lags by minutes)
                share = settle(args.settle)
                print(f"settled: CPU {'?' if share is None else f'{100 * share:.0f}%'} busy before timing", flush=True)
            for name, page in pages.items():
                run = runs[name]
                if run["errors"] or run["executed"] != run["total"]:
                    print(f"{name}: run failed ({run}); skipped", flush=True)
                    continue
                if name != demo and any(r["widget"] == DEMO_WIDGET_CLASS for r in rows):  # the reference again
                    try:
                        rows.append(time_reference(pages[demo], args.moves, f"main control (again, before {name})", demo))
                        print_row(rows[-1])
                    except Exception as error:  # noqa: BLE001 (Playwright's): this notebook is compared with the last one
                        print(f"timing the reference again before {name} failed: {error}", flush=True)
                page.bring_to_front()
                for widget_class in plan[name]:
                    try:
                        page.wait_for_selector(f".{widget_class} .lm-main-control", timeout=max(60.0, 2 * run_s) * 1000)
                    except Exception:  # noqa: BLE001 (Playwright's TimeoutError): report, go on with the others
                        print(f"{name}: no .{widget_class} .lm-main-control after {max(60.0, 2 * run_s):.0f} s; skipped", flush=True)
                        continue
                    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
                    cpu_before = cpu_jiffies()
                    if widget_class == "lm-attention-widget":
                        new = attention_rows(page, args.moves, name)
                    elif widget_class == "lm-temperature-widget":
                        new = temperature_rows(page, args.moves, name)
                    elif widget_class in OTHER_WIDGETS and (found := other_rows(page, lab_url, name)) is not None:
                        new = found
                    else:
                        timed_move(page, widget_class)  # warm-up
                        times = [timed_move(page, widget_class) for _ in range(args.moves)]
                        new = [row(widget_class, "main control", "kernel", times, name)]
                    load = round(os.getloadavg()[0], 2)  # the 1-minute load (it lags: minutes of the past count)
                    busy = busy_share(cpu_before, cpu_jiffies())  # the machine's CPU while this widget was timed
                    for item in new:
                        item["load_average_1min"] = load
                        item["cpu_busy_share"] = busy  # everything: the browser and kernel being timed included
                        rows.append(item)
                        print_row(item)
                    if widget_class != DEMO_WIDGET_CLASS and args.screenshots:
                        png = page.locator(f".{widget_class}").first.screenshot()
                        path = args.screenshots / f"{Path(name).stem}.png"
                        print(f"    screenshot {path} ({save_small_png(png, path) // 1024} KiB)", flush=True)
    course = [r for r in rows if r["widget"] != DEMO_WIDGET_CLASS]
    reference = over_reference(rows, DEMO_WIDGET_CLASS)
    most_median, most_max = RELATIVE_KERNEL_TARGET
    if reference is not None:
        print(f"kernel rows against the bare reference widget timed just before them (target: median <= {most_median} x"
              f" its median, max <= {most_max} x):", flush=True)
        for item in course:
            if "over_reference_ms" in item:
                print(f"  {item['widget']:24s} {item['interaction']:50s} {item['over_reference_ms']:+7.1f} ms"
                      f"  x{item['median_ms'] / item['reference_median_ms']:.2f} median, x{item['max_ms'] / item['reference_median_ms']:.2f}"
                      f" max of {item['reference_median_ms']:.1f}  {'ok' if item['meets_relative_target'] else 'MISSES'}", flush=True)
    summary = {
        "rows": rows,
        "reference_median_ms": reference,
        "targets": {side: {"median_ms": m, "max_ms": x} for side, (m, x) in TARGETS.items()},
        "relative_kernel_target": {"median_x_reference": most_median, "max_x_reference": most_max},
        "all_meet_target": bool(course) and all(r["meets_target"] for r in course),
        "all_meet_relative_target": all_meet_relative_target(course),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "kernel_threads": args.threads,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
