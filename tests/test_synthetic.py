"""The long-range recall task: layout, exact chance level, and that a window model cannot see the key."""

import math

import pytest
import torch

from utils.interface import IGNORE_INDEX
from utils.synthetic import RecallTask, recall_scores
from utils.window_mlp import WindowMLPConfig, WindowMLPLM


def test_batch_layout():
    task = RecallTask(num_keys=4, num_distractors=3, gap=5)
    x, y = task.batch(64, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (64, 7) == (64, task.length)
    assert task.vocab_size == 8 and task.query_id == 7
    assert bool((x[:, 0] < 4).all()) and torch.equal(y[:, -1], x[:, 0])
    assert bool(((x[:, 1:-1] >= 4) & (x[:, 1:-1] < 7)).all()) and bool((x[:, -1] == 7).all())
    assert bool((y[:, :-1] == IGNORE_INDEX).all())
    assert set(x[:, 0].tolist()) == {0, 1, 2, 3}


def test_chance_is_exact():
    task = RecallTask(num_keys=8)
    assert task.chance_loss == math.log(8) and task.chance_accuracy == 1 / 8


def test_rejects_bad_settings():
    with pytest.raises(ValueError):
        RecallTask(num_keys=1)
    with pytest.raises(ValueError):
        RecallTask().batch(0)


def test_same_generator_same_batch_and_describe():
    task = RecallTask(num_keys=3, num_distractors=2, gap=2)
    a = task.batch(4, torch.Generator().manual_seed(3))
    b = task.batch(4, torch.Generator().manual_seed(3))
    assert torch.equal(a[0], b[0])
    assert task.describe(torch.tensor([2, 3, 4, 5])) == "C a b ?"


def test_window_model_cannot_beat_chance_without_the_key():
    torch.manual_seed(0)
    task = RecallTask(num_keys=4, num_distractors=4, gap=6)
    model = WindowMLPLM(WindowMLPConfig(task.vocab_size, window=4, d_embed=4, d_hidden=16))
    x, y = task.batch(256, torch.Generator().manual_seed(1))
    # the last position's window holds no key, so changing the key changes nothing there
    x2 = x.clone()
    x2[:, 0] = (x[:, 0] + 1) % 4
    assert torch.equal(model(x)[:, -1], model(x2)[:, -1])
    loss, accuracy = recall_scores(model, x, y)
    assert 0 <= accuracy <= 1 and loss > 0
