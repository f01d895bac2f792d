"""Train short, evaluate long: fixed windows, the loss at a length, NaN where learned positions cannot read."""

import math

import pytest
import torch
import torch.nn.functional as F

from utils.dataset import Dataset
from utils.extrapolation import ExtrapolationResult, fixed_windows, loss_at_length, train_short_eval_long
from utils.positional import POSITIONAL_KINDS
from utils.tokenizers import CharTokenizer
from utils.transformer import TransformerConfig, TransformerLM

TEXT = "the cat sat on the mat. the dog sat on the log. " * 20  # 960 characters, 14 symbols
TINY = dict(n_layer=1, n_head=2, d_model=16)  # a model that trains in a fraction of a second
STEPS = 40


def toy_dataset(val_chars: int = 260) -> Dataset:
    tokenizer = CharTokenizer.from_text(TEXT)
    ids = torch.tensor(tokenizer.encode(TEXT))
    train, val = ids[: len(ids) - val_chars], ids[len(ids) - val_chars :]
    return Dataset("toy", "text", tokenizer, train, val, val)


@pytest.fixture(scope="module")
def all_kinds():
    """One tiny model per positional kind, trained on windows of 8 and evaluated at 4, 8 and 16."""
    dataset = toy_dataset()
    results, models = train_short_eval_long(
        dataset, POSITIONAL_KINDS, 8, [4, 8, 16], steps=STEPS, batch_size=8, eval_windows=4, **TINY
    )
    return dataset, results, models


def test_fixed_windows_are_contiguous_shifted_by_one_and_seeded():
    tokens = torch.arange(50)
    x, y = fixed_windows(tokens, length=6, count=10, seed=3)
    assert x.shape == y.shape == (10, 6)
    assert torch.equal(x, x[:, :1] + torch.arange(6))  # a contiguous piece of the text (token i is i)
    assert torch.equal(y, x + 1)  # targets: the next token at every position
    assert int(y.max()) <= 49 and int(x.min()) >= 0
    assert torch.equal(fixed_windows(tokens, 6, 10, seed=3)[0], x)
    assert not torch.equal(fixed_windows(tokens, 6, 10, seed=4)[0], x)


def test_fixed_windows_fit_a_text_just_one_token_longer_and_reject_shorter_or_2d_text():
    x, y = fixed_windows(torch.arange(7), length=6, count=3)
    assert torch.equal(x, torch.arange(6).expand(3, 6)) and torch.equal(y, torch.arange(1, 7).expand(3, 6))
    with pytest.raises(ValueError, match="longer than 6 tokens, got shape \\(6,\\)"):
        fixed_windows(torch.arange(6), length=6, count=1)
    with pytest.raises(ValueError, match="1-D text"):
        fixed_windows(torch.arange(40).reshape(2, 20), length=6, count=1)


def test_loss_at_length_is_the_mean_cross_entropy_of_the_fixed_windows():
    torch.manual_seed(0)
    config = TransformerConfig(14, context_length=8, positional="rotary", dropout=0.1, **TINY)
    model = TransformerLM(config)
    tokens = toy_dataset().val
    loss = loss_at_length(model, tokens, length=12, count=5, seed=2)
    assert not model.training  # evaluated without dropout
    x, y = fixed_windows(tokens, 12, 5, seed=2)
    with torch.no_grad():
        expected = F.cross_entropy(model(x).reshape(-1, 14), y.reshape(-1))
    assert loss == pytest.approx(float(expected), rel=1e-5)


def test_loss_at_length_past_a_learned_context_is_a_value_error():
    model = TransformerLM(TransformerConfig(14, context_length=8, positional="learned", **TINY))
    with pytest.raises(ValueError, match="longer than the model's context of 8"):
        loss_at_length(model, toy_dataset().val, length=9, count=2)


def test_only_learned_positions_give_nan_and_only_past_the_training_length(all_kinds):
    _, results, _ = all_kinds
    assert [r.positional for r in results] == list(POSITIONAL_KINDS)
    for result in results:
        assert result.train_length == 8 and sorted(result.losses) == [4, 8, 16]
        unreadable = {16} if result.positional == "learned" else set()
        assert {length for length, loss in result.losses.items() if math.isnan(loss)} == unreadable
        assert set(result.errors) == unreadable
        assert all(math.isfinite(loss) for length, loss in result.losses.items() if length not in unreadable)
    learned = results[POSITIONAL_KINDS.index("learned")]
    assert "longer than the model's context of 8 tokens" in learned.errors[16]
    assert math.isnan(learned.degradation(16)) and learned.degradation(8) == 0.0


def test_every_kind_is_trained_at_the_training_length(all_kinds):
    dataset, results, models = all_kinds
    assert list(models) == list(POSITIONAL_KINDS)
    for result in results:
        model = models[result.positional]
        assert model.config.positional == result.positional and model.config.context_length == 8
        assert result.losses[8] < math.log(dataset.vocab_size) - 0.2  # better than uniform guessing
        assert result.losses[8] == pytest.approx(loss_at_length(model, dataset.val, 8, count=4, seed=0))


def test_training_is_reproducible_from_the_seed(all_kinds):
    dataset, results, _ = all_kinds
    again, _ = train_short_eval_long(
        dataset, ("sinusoidal",), 8, [8, 16], steps=STEPS, batch_size=8, eval_windows=4, **TINY
    )
    first = results[POSITIONAL_KINDS.index("sinusoidal")]
    assert again[0].losses == pytest.approx({8: first.losses[8], 16: first.losses[16]}, rel=1e-6)


def test_the_training_length_must_be_among_the_eval_lengths():
    with pytest.raises(ValueError, match=r"eval_lengths \[4, 16\] must include the training length 8"):
        train_short_eval_long(toy_dataset(), ("rotary",), train_length=8, eval_lengths=[4, 16], steps=1)


def test_a_validation_text_too_short_for_a_length_is_nan_with_its_reason():
    results, _ = train_short_eval_long(
        toy_dataset(val_chars=20), ("rotary",), 8, [8, 32], steps=2, batch_size=4, eval_windows=2, **TINY
    )
    assert math.isfinite(results[0].losses[8]) and math.isnan(results[0].losses[32])
    assert "longer than 32 tokens" in results[0].errors[32]


def test_degradation_is_the_loss_above_the_training_length():
    result = ExtrapolationResult("sinusoidal", 8, losses={8: 1.5, 16: 2.25, 32: math.nan})
    assert result.degradation(16) == pytest.approx(0.75)
    assert result.degradation(8) == 0.0
    assert math.isnan(result.degradation(32)) and math.isnan(result.degradation(64))  # unreadable, never evaluated
    assert math.isnan(ExtrapolationResult("learned", 8, losses={16: 2.0}).degradation(16))  # no baseline
