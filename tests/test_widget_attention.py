"""The attention-map explorer: cached weights per text, sent to the browser once; no model run on control changes."""

import numpy as np
import pytest
import torch
from traitlets import TraitError

from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.attention_map import (
    ALL_HEADS,
    AttentionMapCache,
    AttentionWidget,
    attention_widget,
    compute_attention_maps,
    dequantize_weights,
    grid_shape,
    head_map,
    quantize_weights,
    query_row,
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


def test_quantized_weights_round_trip_within_half_a_step():
    weights = np.random.default_rng(0).dirichlet(np.ones(7), size=(2, 3, 7)).astype(np.float32)  # (2, 3, 7, 7)
    data = quantize_weights(weights)
    assert len(data) == weights.size, "one byte per weight"
    assert np.abs(dequantize_weights(data, weights.shape) - weights).max() <= 1 / 510 + 1e-7
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        quantize_weights(np.array([0.5, 1.5]))


def test_query_row_is_one_head_or_the_mean_over_heads():
    maps = compute_attention_maps(tiny(), TOKENIZER, TEXT)
    assert np.allclose(query_row(maps, 1, 2, 5), maps.weights[1, 2, 5])
    assert np.allclose(query_row(maps, 0, ALL_HEADS, 5), maps.weights[0, :, 5].mean(0))
    with pytest.raises(ValueError, match="query"):
        query_row(maps, 0, 0, len(TEXT))
    with pytest.raises(ValueError, match="layer"):
        query_row(maps, 5, ALL_HEADS, 0)


def test_widget_sends_every_model_layer_and_head_once():
    torch.manual_seed(1)
    trained, untrained = CountingModel(tiny()), CountingModel(TransformerLM(tiny().config).eval())
    widget = AttentionWidget(trained, TOKENIZER, TEXT, untrained=untrained)
    assert "lm-attention-widget" in widget._dom_classes
    T = len(TEXT)
    assert widget.shape == [2, 2, 3, T] and widget.variants == ["trained", "untrained"] and widget.causal
    sent = dequantize_weights(widget.weights, (2, 2, 3, T, T))
    assert np.abs(sent[0] - widget.maps[0].weights).max() <= 1 / 510 + 1e-6
    assert np.abs(sent[1] - widget.maps[1].weights).max() <= 1 / 510 + 1e-6
    assert widget.query == T - 1 and widget.tokens[3] == "␣"
    for head in (ALL_HEADS, 0, 1, 2):
        widget.head = head
    widget.layer, widget.variant, widget.query = 1, 1, 4
    assert np.allclose(widget.shown_row(), widget.maps[1].weights[1, 2, 4])
    assert trained.calls == untrained.calls == 1 and widget.model_runs == 2, "controls never re-run a model"
    with pytest.raises(TraitError, match="head"):
        widget.head = 3
    with pytest.raises(TraitError, match="layer"):
        widget.layer = 2


def test_widget_new_text_runs_each_model_once_and_bad_text_keeps_the_maps():
    counting = CountingModel(tiny())
    widget = attention_widget(counting, TOKENIZER, TEXT)
    assert widget.variants == ["trained"] and widget.shape[0] == 1
    widget.text = "a can"
    assert counting.calls == 2 and widget.tokens == ["a", "␣", "c", "a", "n"] and widget.shape == [1, 2, 3, 5]
    assert widget.query == 4 and len(widget.weights) == 2 * 3 * 5 * 5
    widget.text = "zzz"
    assert "cannot read" in widget.message and widget.maps[0].text == "a can", "a bad text keeps the last good maps"
    widget.text = TEXT
    assert counting.calls == 2 and widget.message == "", "texts seen before come from the cache"


def test_widget_works_on_the_transformer_of_notebook_07_and_rejects_mismatched_models():
    widget = attention_widget(tiny(n_layer=3, n_head=2, positional="rotary"), TOKENIZER, TEXT, max_tokens=20)
    assert widget.shape == [1, 3, 2, 20]
    with pytest.raises(ValueError, match="same layers and heads"):
        AttentionWidget(tiny(), TOKENIZER, TEXT, untrained=tiny(n_head=2))


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
    assert attention["changes"] == 3 and attention["model_runs_during_changes"] == 6, "each new text runs both models"
    assert summary["widgets"]["lm-positional-widget"]["median_ms"] > 0
    assert set(summary["mask_new_prefix"]) == {"full", "fast", "two_layers"}
    assert all(stages["complete"]["changes"] == 3 for stages in summary["mask_new_prefix"].values())
    for stages in summary["mask_new_prefix"].values():  # the baseline took turns with the shipped widget
        assert len(stages) == 6 and stages[bench.BASELINE]["changes"] == 3
        ratio = stages["complete"]["median_ms"] / stages[bench.BASELINE]["median_ms"]
        assert stages["stacked_over_baseline"] == round(ratio, 2)
