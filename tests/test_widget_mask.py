"""The mask explorer and the copy-failure measurements, on tiny untrained models."""

import numpy as np
import pytest
import torch

import utils.training
from utils.copy_failure import next_position_share, sample_continuations
from utils.tokenizers import CharTokenizer
from utils.training import TrainHistory
from utils.transformer import TransformerConfig, TransformerLM
from utils.widgets.mask import MaskWidget, mask_view, mask_widget

TOKENIZER = CharTokenizer.from_text("abcdefgh The")


def tiny(causal: bool) -> TransformerLM:
    torch.manual_seed(0)
    model = TransformerLM(TransformerConfig(TOKENIZER.vocab_size, context_length=16, n_layer=1, n_head=2,
                                            d_model=16, causal=causal, positional="rotary")).eval()
    model.use_kv_cache = causal
    return model


def history(values):
    return TrainHistory(steps=[0, 1, 2], train_loss=values, val_steps=[0, 1, 2], val_loss=values)


def test_next_position_share():
    ahead = torch.eye(5).roll(1, dims=1)  # row i puts all weight on i+1
    assert next_position_share(ahead) == 1.0
    assert next_position_share(torch.eye(5)) == 0.0
    with pytest.raises(ValueError, match="square"):
        next_position_share(torch.ones(3, 4))


def test_masked_attention_never_looks_ahead():
    view = mask_view(tiny(True), TOKENIZER, "The cafe")
    assert view.attention.shape == (8, 8) and np.allclose(np.triu(view.attention, 1), 0)
    assert view.next_share == 0.0 and len(view.generated) == 60
    unmasked = mask_view(tiny(False), TOKENIZER, "The cafe")
    assert np.triu(unmasked.attention, 1).sum() > 0.1


def test_sample_continuations_gives_n_samples_of_the_asked_length():
    model = tiny(True)
    samples = sample_continuations(model, [1, 2], 3, 10)
    assert len(samples) == 3 and all(len(s) == 10 for s in samples)
    assert all(0 <= token < model.vocab_size for s in samples for token in s)


def test_widget_toggles_without_training(monkeypatch):
    def no_training(*args, **kwargs):
        raise AssertionError("the widget must not train")

    monkeypatch.setattr(utils.training, "train", no_training)
    models = {"masked": tiny(True), "unmasked": tiny(False)}
    weights_before = {k: [p.clone() for p in m.parameters()] for k, m in models.items()}
    widget = mask_widget(models, {"masked": history([3.0, 2.5, 2.2]), "unmasked": history([3.0, 1.0, 0.3])}, TOKENIZER)
    assert isinstance(widget, MaskWidget) and "lm-mask-widget" in widget._dom_classes
    assert "lm-main-control" in widget.toggle._dom_classes and "lm-figure" in widget.canvas.image._dom_classes
    masked_png = widget.canvas.image.value
    assert widget.curves["masked"].get_linewidth() > widget.curves["unmasked"].get_linewidth()
    widget.toggle.value = "mask off"
    assert widget.canvas.image.value != masked_png
    assert widget.curves["unmasked"].get_linewidth() > widget.curves["masked"].get_linewidth()
    assert "unmasked</b> (shown)" in widget.texts.value
    widget.prefix_box.value = "abc"
    assert widget.last_view.attention.shape == (3, 3) and widget.image.get_array().shape == (3, 3)
    assert len(widget.cache) == 4  # two prefixes x two models, each computed once
    widget.toggle.value = "causal mask on"
    assert len(widget.cache) == 4
    for name, model in models.items():
        assert all(torch.equal(a, b) for a, b in zip(weights_before[name], model.parameters()))
    widget.prefix_box.value = ""
    assert "empty" in widget.info.value


def test_bad_keys():
    with pytest.raises(ValueError, match="masked"):
        MaskWidget({"a": tiny(True)}, {"a": history([1.0, 1.0, 1.0])}, TOKENIZER)


def test_generation_time_nll_matches_the_masked_forward_and_hides_the_future():
    from utils.decoding import sequence_log_prob
    from utils.copy_failure import generation_time_nll

    windows = [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]
    masked = tiny(True)
    expected = -sum(sequence_log_prob(masked, torch.tensor(w[:1]), torch.tensor(w[1:])) for w in windows) / 10
    assert generation_time_nll(masked, windows) == pytest.approx(expected, rel=1e-4)
    assert masked.use_kv_cache  # restored afterwards
    unmasked = tiny(False)
    step_by_step = generation_time_nll(unmasked, windows)
    seeing_all = -sum(sequence_log_prob(unmasked, torch.tensor(w[:1]), torch.tensor(w[1:])) for w in windows) / 10
    assert step_by_step != pytest.approx(seeing_all, rel=1e-4)  # the full forward pass lets it see the future
    with pytest.raises(ValueError, match="two tokens"):
        generation_time_nll(masked, [[1]])


def test_teacher_forced_nll_is_one_forward_pass_and_agrees_with_generation_only_when_masked():
    from utils.copy_failure import generation_time_nll, teacher_forced_nll

    windows = [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]
    masked, unmasked = tiny(True), tiny(False)
    with torch.no_grad():
        ids = torch.tensor(windows)
        by_hand = -torch.log_softmax(masked(ids[:, :-1]), -1).gather(-1, ids[:, 1:, None]).mean().item()
        forced = teacher_forced_nll(masked, windows)
    assert forced == pytest.approx(by_hand, rel=1e-6)
    assert forced == pytest.approx(generation_time_nll(masked, windows), abs=1e-5)  # past-only either way
    assert teacher_forced_nll(unmasked, windows) != pytest.approx(generation_time_nll(unmasked, windows), abs=1e-3)
    with pytest.raises(ValueError, match="one common length"):
        teacher_forced_nll(masked, [[1, 2, 3], [1, 2]])
