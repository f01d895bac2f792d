"""The attention-map explorer: cached weights per text, in-place redraws, no model run on layer/head changes."""

import numpy as np
import pytest
import torch

from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.attention_map import (
    ALL_HEADS,
    AttentionMapCache,
    AttentionWidget,
    attention_widget,
    compute_attention_maps,
    grid_shape,
    head_map,
    token_label,
)

TOKENIZER = CharTokenizer.from_text("Can you can a can like a canner can a can.\n")
TEXT = "Can you can a can like a canner can a can."


def tiny(n_layer: int = 2, n_head: int = 3, context_length: int = 64, positional: str = "learned") -> TransformerLM:
    torch.manual_seed(0)
    return TransformerLM(TransformerConfig(TOKENIZER.vocab_size, context_length=context_length, n_layer=n_layer,
                                           n_head=n_head, d_model=24, positional=positional)).eval()


class CountingModel:
    """Wraps a model and counts forward_with_attention calls."""

    def __init__(self, model):
        self.model, self.calls = model, 0
        self.context_length, self.training, self.device = model.context_length, False, model.device

    def forward_with_attention(self, idx):
        self.calls += 1
        return self.model.forward_with_attention(idx)

    def eval(self):
        return self

    def train(self, mode=True):
        return self


def test_maps_hold_every_layer_and_head_and_match_the_model():
    model = tiny()
    maps = compute_attention_maps(model, TOKENIZER, TEXT)
    T = len(TEXT)
    assert maps.weights.shape == (2, 3, T, T) and maps.tokens == list(TEXT) and maps.text == TEXT
    assert np.allclose(maps.weights.sum(-1), 1, atol=1e-5)
    assert np.allclose(np.triu(maps.weights, 1), 0), "causal model: no weight on the future"
    _, expected = model.forward_with_attention(torch.tensor([TOKENIZER.encode(TEXT)]))
    assert np.allclose(head_map(maps, 1, 2), expected[1][0, 2].detach().numpy())


def test_long_text_keeps_its_last_tokens():
    maps = compute_attention_maps(tiny(context_length=16), TOKENIZER, TEXT, max_tokens=32)
    assert maps.text == TEXT[-16:] and maps.weights.shape[-1] == 16
    maps = compute_attention_maps(tiny(positional="rotary"), TOKENIZER, TEXT, max_tokens=10)
    assert maps.text == TEXT[-10:]


def test_bad_input_is_a_clear_error():
    model = tiny()
    with pytest.raises(ValueError, match="empty"):
        compute_attention_maps(model, TOKENIZER, "")
    with pytest.raises(ValueError, match="not in the vocabulary"):
        compute_attention_maps(model, TOKENIZER, "Can you zap?")
    maps = compute_attention_maps(model, TOKENIZER, "Can")
    with pytest.raises(ValueError, match="layer"):
        head_map(maps, 2, 0)
    with pytest.raises(ValueError, match="head"):
        head_map(maps, 0, 3)


def test_cache_runs_the_model_once_per_text():
    counting = CountingModel(tiny())
    cache = AttentionMapCache(counting, TOKENIZER)
    first = cache.get(TEXT)
    assert cache.get(TEXT) is first and counting.calls == 1 and cache.model_runs == 1
    cache.get("a can")
    assert counting.calls == 2


def test_helpers():
    assert token_label(" ") == "␣" and token_label("\n") == "\\n" and token_label("a") == "a"
    assert grid_shape(4) == (2, 2) and grid_shape(3) == (2, 2) and grid_shape(6) == (2, 3) and grid_shape(1) == (1, 1)


def test_widget_classes_and_layer_head_changes_do_not_rerun_the_model():
    counting = CountingModel(tiny())
    widget = AttentionWidget(counting, TOKENIZER, TEXT)
    assert "lm-attention-widget" in widget._dom_classes
    assert "lm-main-control" in widget.head_selector._dom_classes
    assert "lm-figure" in widget.canvas.image._dom_classes
    assert widget.head_selector.options[0] == ("all heads", ALL_HEADS) and len(widget.head_selector.options) == 4
    image_widget, first_png = widget.canvas.image, widget.canvas.image.value
    single_artist = widget.single_image
    widget.layer_selector.value = 1
    widget.head_selector.value = 2
    assert np.allclose(widget.single_image.get_array(), widget.maps.weights[1, 2])
    assert widget.canvas.image.value != first_png, "the picture changed"
    widget.head_selector.value = ALL_HEADS
    assert all(ax.get_visible() for ax in widget.grid_axes) and not widget.single_ax.get_visible()
    for head, image in enumerate(widget.grid_images):
        assert np.allclose(image.get_array(), widget.maps.weights[1, head])
    assert counting.calls == 1, "layer and head changes only re-slice cached weights"
    assert widget.canvas.image is image_widget and widget.single_image is single_artist, "updated in place"


def test_widget_text_box_and_update_path():
    counting = CountingModel(tiny())
    widget = attention_widget(counting, TOKENIZER, TEXT)
    widget.text_box.value = "a can"
    assert counting.calls == 2 and widget.maps.tokens == list("a can")
    assert [t.get_text() for t in widget.single_ax.get_xticklabels()] == ["a", "␣", "c", "a", "n"]
    drawn = widget.update(layer=0, head=1)
    assert drawn.shape == (5, 5) and np.allclose(drawn, widget.maps.weights[0, 1])
    assert widget.update(text="zzz") is None and "cannot read" in widget.message.value
    assert widget.maps.text == "a can", "a bad text keeps the last good maps"
    widget.text_box.value = TEXT
    assert counting.calls == 2, "texts seen before come from the cache"


def test_kernel_benchmark_smoke():
    """benchmarks/bench_widget_kernel.py runs on a few changes (the figures come from running it by hand)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_widget_kernel.py"
    spec = importlib.util.spec_from_file_location("bench_widget_kernel", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    summary = bench.main(["--changes", "3"])
    attention = summary["widgets"]["lm-attention-widget"]
    assert attention["changes"] == 3 and attention["model_runs_during_changes"] == 0
    assert summary["widgets"]["lm-positional-widget"]["median_ms"] > 0
