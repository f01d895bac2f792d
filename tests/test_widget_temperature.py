"""The temperature explorer: plain logic, the Python mirror of the browser's sampler, and a widget that never re-runs the model."""

import numpy as np
import pytest
import torch
from traitlets import TraitError

from utils.interface import LanguageModel
from utils.sampling import next_token_probs
from utils.widgets.temperature import (
    TemperatureWidget,
    mulberry32,
    seeded_samples,
    temperature_view,
    temperature_widget,
    token_label,
)


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
    assert (view.tempered[~view.kept] > 0).all(), "removed tokens keep their tempered probability for the grey bars"
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


def test_mulberry32_matches_its_published_first_values():
    # mulberry32 with seed 7: the browser's generator (static/temperature.js) printed these in node.
    assert mulberry32(7, 3) == pytest.approx([0.011704753153026104, 0.06195825757458806, 0.97690763277933], abs=0)
    us = mulberry32(12345, 2000)
    assert 0 <= min(us) and max(us) < 1 and abs(np.mean(us) - 0.5) < 0.03


def test_seeded_samples_follow_the_distribution_and_never_pick_removed_tokens():
    probs = next_token_probs(torch.tensor([3.0, 2.0, 1.0, 0.0, -1.0]), 1.0, top_k=3)  # (5,)
    draws = seeded_samples(probs, 4000, seed=3)
    assert set(draws) <= {0, 1, 2}
    freq = np.bincount(draws, minlength=5) / len(draws)
    assert np.allclose(freq, probs.numpy(), atol=0.03)
    assert seeded_samples(probs, 10, 3) == draws[:10], "same seed, same samples"
    assert seeded_samples(torch.tensor([0.0, 1.0, 0.0]), 5, 0) == [1] * 5


def test_widget_sends_logits_once_and_controls_do_not_rerun_the_model():
    model = CountingModel()
    widget = temperature_widget(model, Chars(), "abc", n_bars=8, n_samples=10)
    assert isinstance(widget, TemperatureWidget) and model.calls == 1
    assert "lm-temperature-widget" in widget._dom_classes
    assert np.allclose(widget.logits, model.table[2].tolist()) and widget.labels[-1] == "␣"
    widget.temperature = 0.01
    assert widget.last_view.probs[0] > 0.99 and len(set(widget.samples())) == 1
    widget.temperature, widget.top_k = 5.0, 3
    assert widget.last_view.n_kept == 3 and set(widget.samples()) <= set(widget.last_view.order[:3].tolist())
    widget.top_p, widget.seed, widget.view = 0.5, 4, "log"
    assert widget.settings() == (5.0, 3, 0.5)
    assert model.calls == 1  # T, k, p, the axis and the seed re-weight the stored logits only
    with pytest.raises(TraitError, match="view"):
        widget.view = "bars"
    for name, bad in (("temperature", 0.0), ("temperature", 11.0), ("top_k", -1), ("top_k", 13), ("top_p", 0.0),
                      ("top_p", 1.5)):
        with pytest.raises(TraitError, match=name):
            setattr(widget, name, bad)
    assert widget.settings() == (5.0, 3, 0.5), "a rejected value leaves the setting as it was"


def test_bad_input():
    with pytest.raises(ValueError, match="one symbol per logit"):
        TemperatureWidget(torch.zeros(5), list("abc"))
    with pytest.raises(ValueError, match="finite"):
        TemperatureWidget(torch.tensor([0.0, float("inf")]), list("ab"))
    with pytest.raises(ValueError, match="temperature"):
        TemperatureWidget(torch.zeros(2), list("ab"), temperature=0.0)
    with pytest.raises(ValueError, match="empty"):
        temperature_widget(CountingModel(), Chars(), "")
    with pytest.raises(ValueError, match="temperature"):
        temperature_view(torch.zeros(4), -1.0)
    assert token_label(" ") == "␣" and token_label("\n") == "\\n" and token_label("a") == "a"
