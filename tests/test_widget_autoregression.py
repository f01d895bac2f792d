"""The notebook-01 widget: its logic is exact and its controls redraw the figure."""

import math

import pytest
import torch

from utils.baselines import BaselineConfig, UniformLM, UnigramLM
from utils.tokenizers import CharTokenizer
from utils.widgets.autoregression import autoregression_widget, readable, summary, token_surprisals


@pytest.fixture
def setup():
    tok = CharTokenizer.from_text("abcd ")
    unigram = UnigramLM.fit(torch.tensor([0, 1, 1, 1, 2, 3, 4]), tok.vocab_size, k=1.0)
    return tok, {"uniform": UniformLM(BaselineConfig(tok.vocab_size)), "unigram": unigram}


def test_uniform_surprisal_is_log2_of_the_vocabulary(setup):
    tok, models = setup
    symbols, bits = token_surprisals(models["uniform"], tok, "abc d")
    assert symbols == ["b", "c", " ", "d"]
    assert torch.allclose(bits, torch.full((4,), math.log2(5)))
    assert "perplexity 5.0" in summary(bits)


def test_bad_text_is_reported_in_the_widget_not_raised(setup):
    tok, models = setup
    with pytest.raises(ValueError, match="at least two"):
        token_surprisals(models["uniform"], tok, "a")
    explorer = autoregression_widget(models, tok, "abcd")
    explorer.text_box.value = "abz"
    assert "not in the vocabulary" in explorer.status.value


def test_switching_model_or_text_redraws_in_place(setup):
    tok, models = setup
    explorer = autoregression_widget(models, tok, "abba")
    first_png, bars = explorer.canvas.image.value, explorer.bars
    explorer.model_picker.value = "unigram"
    assert explorer.canvas.image.value != first_png and explorer.bars is bars
    heights = [b.get_height() for b in bars[:3]]
    expected = token_surprisals(models["unigram"], tok, "abba")[1].tolist()
    assert heights == pytest.approx(expected)
    scale = explorer.ax.get_ylim()
    explorer.model_picker.value = "uniform"  # one scale for every model of a text
    assert explorer.ax.get_ylim() == scale
    highest = max(float(token_surprisals(m, tok, "abba")[1].max()) for m in models.values())
    assert scale[1] >= highest
    explorer.text_box.value = "a b"
    assert [t.get_text() for t in explorer.ax.get_xticklabels()[:2]] == [readable(" "), "b"]
    assert "lm-autoregression-widget" in explorer.widget._dom_classes
