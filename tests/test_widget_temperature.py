"""The temperature explorer: plain logic, and a widget driven from Python that never re-runs the model."""

import numpy as np
import pytest
import torch

from utils.widgets.temperature import TemperatureWidget, temperature_view, temperature_widget
from utils.interface import LanguageModel


class CountingModel(LanguageModel):
    """Fixed random logits; counts how often forward runs."""

    def __init__(self, vocab_size: int = 12):
        super().__init__()
        self.vocab_size, self.calls = vocab_size, 0
        self.register_buffer("table", torch.randn(vocab_size, vocab_size, generator=torch.Generator().manual_seed(0)) * 3)

    def forward(self, idx):
        self.validate_input(idx)
        self.calls += 1
        return self.table[idx]


class Chars:
    vocab = list("abcdefghijk ")

    def encode(self, text):
        return [self.vocab.index(c) for c in text]


def test_view_applies_filters_in_a_fixed_order():
    logits = torch.tensor([2.0, 0.5, 3.0, -1.0, 1.0])
    view = temperature_view(logits, 1.0, top_k=2, n_bars=5)
    assert view.order.tolist() == [2, 0, 4, 1, 3]  # by logit, whatever the temperature
    assert view.kept.tolist() == [True, True, False, False, False] and view.n_kept == 2
    assert np.isclose(view.probs.sum(), 1.0) and (view.probs[~view.kept] == 0).all()
    nucleus = temperature_view(logits, 1.0, top_p=0.5, n_bars=5)
    assert nucleus.n_kept == 1  # the top token alone has > 0.5 of the mass
    assert temperature_view(logits, 5.0).order.tolist() == view.order.tolist()


@pytest.mark.parametrize("t", [0.01, 0.05, 1.0, 3.0, 10.0])
def test_view_is_finite_over_the_slider_range(t):
    logits = torch.randn(100) * 20
    view = temperature_view(logits, t, top_k=50, top_p=0.9)
    assert np.isfinite(view.probs).all() and np.isfinite(view.entropy)


def test_cold_is_greedy_and_hot_is_flat():
    logits = torch.randn(30)
    assert temperature_view(logits, 0.01).probs[0] > 0.99
    hot = temperature_view(logits, 1000.0, n_bars=30)
    assert np.allclose(hot.probs, 1 / 30, atol=1e-3)


def test_widget_controls_do_not_rerun_the_model():
    model = CountingModel()
    widget = temperature_widget(model, Chars(), "abc", n_bars=8, n_samples=10)
    assert isinstance(widget, TemperatureWidget) and model.calls == 1
    assert "lm-temperature-widget" in widget._dom_classes
    assert "lm-main-control" in widget.temperature_slider._dom_classes
    assert "lm-figure" in widget.canvas.image._dom_classes
    first_png = widget.canvas.image.value
    widget.temperature_slider.value = 0.01
    assert widget.last_view.probs[0] > 0.99 and len(set(widget.last_samples)) == 1
    widget.temperature_slider.value = 5.0
    widget.top_k_slider.value = 3
    assert widget.last_view.n_kept == 3 and set(widget.last_samples) <= set(widget.last_view.order[:3].tolist())
    assert [bar.get_height() for bar in widget.bars][3:] == [0.0] * 5
    widget.top_p_slider.value = 0.5
    widget.resample_button.click()
    assert model.calls == 1  # T, k, p and resampling re-weight the stored logits only
    assert widget.canvas.image.value != first_png
    assert widget.axes.get_ylim() == (0, 1)  # a fixed axis: a higher T shows as flatter bars


def test_bad_input():
    with pytest.raises(ValueError, match="one symbol per logit"):
        TemperatureWidget(torch.zeros(5), list("abc"))
    with pytest.raises(ValueError, match="empty"):
        temperature_widget(CountingModel(), Chars(), "")
    with pytest.raises(ValueError, match="temperature"):
        temperature_view(torch.zeros(4), -1.0)
