"""Kernel-side time of the widgets' kernel work, per change: the attention widget's new text, the
positional-encoding widget's controls, the mask grid's new prefix (at notebook 08's full and fast sizes).

Each change sets a trait the way the browser does (which runs the widget's callback) and is timed
with the wall clock and the process CPU clock (the CPU figure is less disturbed by other jobs on a
shared machine). The attention widget (anywidget; its head, layer, model and query changes happen
in the browser and cost the kernel nothing) runs a 2-layer, 4-head TransformerLM and an untrained
copy on each new text: tokenise, two forward passes, quantise the weights for the browser.
Target: median under 100 ms per change (the browser-side moves are timed by bench_widget_latency.py);
the positional widget's size sliders redraw the whole figure and are reported apart. The mask grid
(notebook 08's sizes: full mode 1 layer, d_model 64; fast mode, which the browser benchmark runs,
1 layer, d_model 48; its Try-it N_LAYER = 2 at full size; all 4 heads, rotary, the widget's default
3 samples of 40 characters) times each new prefix to the four maps sent, to the first characters
sent and to the samples complete (they stream: the view shows them as they grow). With one layer a
row's two cells share their draws (utils.widgets.mask_samples.one_layer_twins), so two cells'
models run, not four; the cells run with the mask step together (utils/widgets/stacked_decoder.py).
Each new prefix takes turns with one written one model at a time (`widget.stack = False`), so the
ratio of the two medians (`stacked_over_baseline`) is measured on the same machine at the same time.

    python benchmarks/bench_widget_kernel.py               # 40 changes per widget
    python benchmarks/bench_widget_kernel.py --changes 4   # a quick smoke run

Last line: one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import time

import torch

from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.attention_map import attention_widget

TARGET_MS = 100.0
MASK_SIZES = {"full": (1, 64), "fast": (1, 48), "two_layers": (2, 64)}  # notebook 08's (N_LAYER, D_MODEL): full, fast, Try-it
SENTENCE = "Can you can a can like a canner can a can."
BASELINE = "complete, one model at a time"  # the mask grid without its stacked decoder, timed in turns with it


def time_changes(changes) -> dict:
    """Apply each (control, value) change; return wall and CPU milliseconds per change."""
    wall, cpu = [], []
    for control, value in changes:
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        control.value = value
        wall.append(1000 * (time.perf_counter() - start_wall))
        cpu.append(1000 * (time.process_time() - start_cpu))
    return {
        "changes": len(wall),
        "median_ms": round(statistics.median(wall), 1),
        "max_ms": round(max(wall), 1),
        "median_cpu_ms": round(statistics.median(cpu), 1),
        "max_cpu_ms": round(max(cpu), 1),
    }


class TraitSetter:
    """Setting `.value` sets a trait of a widget (the browser's way of changing an anywidget)."""

    def __init__(self, widget, name: str):
        self.widget, self.name = widget, name

    @property
    def value(self):
        return getattr(self.widget, self.name)

    @value.setter
    def value(self, new) -> None:
        setattr(self.widget, self.name, new)


def attention_changes(widget, count: int) -> list:
    """New texts, each unseen (each runs both models once): the sentence cut at growing lengths and words swapped."""
    words = SENTENCE.split()
    texts = [" ".join(words[i % len(words):] + words[: i % len(words)])[: 20 + (i * 7) % 40] for i in range(count)]
    seen, unique = set(), []
    for i, text in enumerate(texts):
        while text in seen:
            text = text + "a"
        seen.add(text)
        unique.append(text)
    return [(TraitSetter(widget, "text"), text) for text in unique]


def encoding_changes(widget, count: int, widget_kinds) -> list:
    """Cycle the encoding (the main control): only the data artists are redrawn."""
    kinds = itertools.cycle([k for k in widget_kinds if k != "sinusoidal"] + ["sinusoidal"])
    return [(widget.kind_selector, next(kinds)) for _ in range(count)]


def size_changes(widget, count: int) -> list:
    """Alternate the number of positions and of dimensions: axes limits change, so the whole figure is redrawn."""
    positions = itertools.cycle([48, 64, 96, 64])
    dims = itertools.cycle([32, 64])
    return [(widget.positions_slider, next(positions)) if i % 2 else (widget.d_slider, next(dims)) for i in range(count)]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=40, help="control changes per widget")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads (default 1: on a loaded machine more threads cost far more than they give)")
    args = parser.parse_args(argv)
    if args.changes < 1:
        parser.error("--changes must be at least 1")
    torch.set_num_threads(args.threads)

    torch.manual_seed(0)
    tokenizer = CharTokenizer.from_text(SENTENCE)
    model = TransformerLM(TransformerConfig(tokenizer.vocab_size, context_length=64, n_layer=2, n_head=4,
                                            d_model=64)).eval()
    start = time.perf_counter()
    torch.manual_seed(1)
    untrained = TransformerLM(model.config).eval()
    attention = attention_widget(model, tokenizer, SENTENCE, untrained=untrained)
    attention_build_ms = 1000 * (time.perf_counter() - start)
    runs_before = attention.model_runs
    attention_figures = time_changes(attention_changes(attention, args.changes))
    attention_figures["model_runs_during_changes"] = attention.model_runs - runs_before
    attention_figures["build_ms"] = round(attention_build_ms, 1)
    attention_figures["interaction"] = "new text (kernel: 2 models run)"

    try:  # the positional widget belongs to another file; its API may move on
        from utils.widgets.positional import WIDGET_KINDS, positional_widget

        start = time.perf_counter()
        positional = positional_widget(n_positions=64, d=64)
        positional_build_ms = 1000 * (time.perf_counter() - start)
        positional_figures = time_changes(encoding_changes(positional, args.changes, WIDGET_KINDS))
        positional_figures["build_ms"] = round(positional_build_ms, 1)
        size_figures = time_changes(size_changes(positional, args.changes))
    except (ImportError, AttributeError, TypeError) as error:
        positional_figures = size_figures = {"skipped": f"positional widget API changed: {error}", "median_ms": 0.0,
                                             "median_cpu_ms": 0.0, "max_ms": 0.0, "changes": 0}

    mask_figures = {size: mask_prefix_changes(max(3, args.changes // 4), n_layer, d_model)
                    for size, (n_layer, d_model) in MASK_SIZES.items()}

    summary = {
        "benchmark": "widget_kernel",
        "target_median_ms": TARGET_MS,
        "widgets": {"lm-attention-widget": attention_figures, "lm-positional-widget": positional_figures},
        "positional_size_changes": size_figures,  # secondary controls: full redraws, reported, not in the target
        "mask_new_prefix": mask_figures,  # per size: to the maps, to the first text, to the samples complete
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cpu_count": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "meets_target_wall": all(w["median_ms"] < TARGET_MS for w in (attention_figures, positional_figures)),
        "meets_target_cpu": all(w["median_cpu_ms"] < TARGET_MS for w in (attention_figures, positional_figures)),
    }
    for name, figures in [*summary["widgets"].items(), ("positional sizes", size_figures)]:
        print(f"{name:22s} median {figures['median_ms']:7.1f} ms (cpu {figures['median_cpu_ms']:6.1f}) | "
              f"max {figures['max_ms']:7.1f} ms | {figures['changes']} changes")
    for size, stages in mask_figures.items():
        for stage, figures in stages.items():
            if isinstance(figures, dict):
                print(f"mask prefix, {size}: {stage:10s} median {figures['median_ms']:7.1f} ms "
                      f"(cpu {figures['median_cpu_ms']:6.1f}) | max {figures['max_ms']:7.1f} ms")
        print(f"mask prefix, {size}: stacked / one model at a time (complete, medians): {stages['stacked_over_baseline']}")
    print(json.dumps(summary))
    return summary


def mask_prefix_changes(count: int, n_layer: int = 2, d_model: int = 64) -> dict:
    """New prefixes for the mask grid (each unseen): ms to the maps sent, the first samples sent, the samples complete."""
    from utils.copy_failure import fit_judge
    from utils.dataset import load_dataset
    from utils.widgets.mask import MaskGridWidget

    dataset = load_dataset("pydocs")
    models = {}
    for name, causal in (("masked", True), ("unmasked", False)):
        torch.manual_seed(0)  # untrained weights: the same work per prefix as trained ones
        models[name] = TransformerLM(TransformerConfig(dataset.vocab_size, context_length=32, n_layer=n_layer, n_head=4,
                                                       d_model=d_model, causal=causal, positional="rotary")).eval()
        models[name].use_kv_cache = causal
    windows = [dataset.val[s : s + 33].tolist() for s in range(0, 8 * 500, 500)]
    widget = MaskGridWidget(models, fit_judge(dataset), dataset.tokenizer, windows, prefix="Return the value of ")
    marks: dict[str, tuple[float, float]] = {}  # stage -> (wall, process CPU) clock when it was sent
    clocks = lambda: (time.perf_counter(), time.process_time())  # noqa: E731
    widget.observe(lambda _: marks.setdefault("maps", clocks()), names="cells")
    widget.observe(lambda _: marks.setdefault("first text", clocks()), names="texts")
    stages = ("maps", "first text", "complete", BASELINE)
    wall: dict[str, list[float]] = {stage: [] for stage in stages}
    cpu: dict[str, list[float]] = {stage: [] for stage in stages}
    words = ("file", "class", "value", "list", "name", "object", "method", "string", "module", "error")
    for i in range(2 * count):  # the widget as shipped and the one-model-at-a-time baseline, taking turns
        widget.stack = i % 2 == 0
        marks.clear()
        start = clocks()
        widget.prefix = f"The {words[(i // 2) % len(words)]} {i} "  # both paths get the same words
        marks["complete"] = clocks()
        for stage in stages[:3] if widget.stack else [BASELINE]:
            mark = marks["complete" if stage == BASELINE else stage]
            wall[stage].append(1000 * (mark[0] - start[0]))
            cpu[stage].append(1000 * (mark[1] - start[1]))
    widget.stack = True
    result: dict = {stage: {"median_ms": round(statistics.median(wall[stage]), 1), "max_ms": round(max(wall[stage]), 1),
                            "median_cpu_ms": round(statistics.median(cpu[stage]), 1),
                            "max_cpu_ms": round(max(cpu[stage]), 1), "changes": count} for stage in stages}
    result["samples"] = f"{widget.n_samples} x {widget.length} characters per cell"
    result["stacked_over_baseline"] = round(result["complete"]["median_ms"] / result[BASELINE]["median_ms"], 2)
    return result


if __name__ == "__main__":
    main()
