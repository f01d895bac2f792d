"""The notebook-02 widget: its logic is the model's, its controls redraw the bars in place and never count."""

import asyncio

import pytest
import torch

from utils.ngram import NGramLM
from utils.ngram_counts import NGramCounts
from utils.tokenizers import CharTokenizer
from utils.widgets.autoregression import readable
from utils.widgets.ngram import SAMPLE_DELAY_S, STRENGTHS, build_model, ngram_widget, sample_text, top_next_tokens

TEXT = "the cat sat on the mat. the dog sat on the log. a cat and a dog met on a mat.\n" * 2


@pytest.fixture
def setup():
    tokenizer = CharTokenizer.from_text(TEXT)
    counts = NGramCounts.from_sequences([torch.tensor(tokenizer.encode(TEXT))], tokenizer.vocab_size, 4)
    return tokenizer, counts


def test_top_tokens_are_the_models_distribution(setup):
    tokenizer, counts = setup
    model = build_model(counts, 3, "add_k", 0.5)
    assert model.config.k == 0.5 and model.n == 3
    symbols, probs = top_next_tokens(model, tokenizer, "the d", top=5)
    full = model.next_token_distribution(tokenizer.encode("the d"))
    assert symbols[0] == "o" and torch.allclose(probs, full.sort(descending=True).values[:5])
    with pytest.raises(ValueError, match="not in the vocabulary"):
        top_next_tokens(model, tokenizer, "zebra")


def test_samples_are_fresh_and_reproducible(setup):
    tokenizer, counts = setup
    model = build_model(counts, 4, "kneser_ney", 0.75)
    assert sample_text(model, tokenizer, "the ", 40, seed=1) == sample_text(model, tokenizer, "the ", 40, seed=1)
    assert sample_text(model, tokenizer, "the ", 40, seed=1) != sample_text(model, tokenizer, "the ", 40, seed=2)
    with pytest.raises(ValueError, match="at least one symbol"):
        sample_text(model, tokenizer, "", 10, seed=0)


def test_controls_redraw_in_place_without_counting(setup, monkeypatch):
    tokenizer, counts = setup
    explorer = ngram_widget(counts, tokenizer, prefix="the c", n=2)
    assert "lm-ngram-widget" in explorer.widget._dom_classes
    assert "lm-main-control" in explorer.n_slider._dom_classes
    assert "lm-figure" in explorer.canvas.image._dom_classes
    monkeypatch.setattr(NGramCounts, "from_sequences", lambda *a, **k: pytest.fail("a callback counted n-grams"))
    monkeypatch.setattr(NGramLM, "fit", lambda *a, **k: pytest.fail("a callback fitted a model"))
    bars, png, sample = explorer.bars, explorer.canvas.image.value, explorer.sample.value
    explorer.n_slider.value = 4
    assert explorer.bars is bars and explorer.canvas.image.value != png and explorer.sample.value != sample
    expected = top_next_tokens(build_model(counts, 4, "kneser_ney", 0.75), tokenizer, "the c", 15)[1]
    heights = [bar.get_height() for bar in bars[: len(expected)]]
    assert heights == pytest.approx(expected.tolist())
    explorer.smoothing_picker.value = "add_k"
    assert explorer.strength_slider.value == STRENGTHS["add_k"][-1] and not explorer.strength_slider.disabled
    explorer.strength_slider.value = 2.0
    assert explorer.model().config.k == 2.0
    explorer.smoothing_picker.value = "mle"
    assert explorer.strength_slider.disabled
    sample = explorer.sample.value
    explorer.resample_button.click()
    assert explorer.sample.value != sample
    explorer.prefix_box.value = "zebra"
    assert "not in the vocabulary" in explorer.status.value


def test_symbols_sit_on_their_bars(setup):
    tokenizer, counts = setup
    explorer = ngram_widget(counts, tokenizer, prefix="the d", n=3)
    symbols, probs = top_next_tokens(explorer.model(), tokenizer, "the d", explorer.top)
    labels = explorer.symbol_labels[: len(symbols)]
    assert [label.get_text() for label in labels] == [readable(s) for s in symbols]
    assert [label.get_position()[1] for label in labels] == pytest.approx([p + 0.01 for p in probs.tolist()])
    assert explorer.ax.get_ylim() == (0, 1.08)  # fixed, so bars compare across n


def test_in_a_running_event_loop_the_sample_waits_for_the_controls_to_rest(setup):
    tokenizer, counts = setup

    async def drag_the_slider():
        explorer = ngram_widget(counts, tokenizer, prefix="the c", n=2)
        first_sample, first_seed = explorer.sample.value, explorer.seed
        assert first_sample  # the first sample is drawn at once
        explorer.n_slider.value = 3
        explorer.n_slider.value = 4  # bars follow every step; no sample yet
        assert explorer.sample.value == first_sample and explorer.pending_sample is not None
        await asyncio.sleep(SAMPLE_DELAY_S + 0.3)
        assert explorer.pending_sample is None
        assert explorer.seed == first_seed + 1  # one sample for the two changes
        assert explorer.sample.value != first_sample

    asyncio.run(drag_the_slider())
