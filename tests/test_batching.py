"""Batches: random windows of text, framed and padded items, sequential evaluation batches."""

import pytest
import torch

from utils.batching import batch_sampler, frame_items, random_windows, sequential_batches
from utils.interface import IGNORE_INDEX


def test_random_windows_targets_are_inputs_shifted_by_one():
    tokens = torch.arange(100)
    x, y = random_windows(tokens, batch_size=8, block_size=16, generator=torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (8, 16)
    assert torch.equal(y[:, :-1], x[:, 1:]) and torch.equal(y[:, -1], x[:, -1] + 1)


def test_random_windows_are_seeded_and_cover_the_last_token():
    tokens = torch.arange(20)
    a = random_windows(tokens, 64, 5, torch.Generator().manual_seed(1))
    b = random_windows(tokens, 64, 5, torch.Generator().manual_seed(1))
    assert torch.equal(a[0], b[0])
    assert int(a[1].max()) == 19  # the final token can be a target


def test_random_windows_bad_input():
    with pytest.raises(ValueError, match="1-D"):
        random_windows(torch.zeros(2, 5, dtype=torch.long), 1, 2)
    with pytest.raises(ValueError, match="too short"):
        random_windows(torch.arange(4), 1, 4)
    with pytest.raises(ValueError, match="at least 1"):
        random_windows(torch.arange(10), 0, 2)


def test_frame_items_pads_inputs_with_boundary_and_targets_with_ignore():
    x, y = frame_items([[5, 6, 7], [8]], boundary_id=0)
    assert x.tolist() == [[0, 5, 6, 7], [0, 8, 0, 0]]
    assert y.tolist() == [[5, 6, 7, 0], [8, 0, IGNORE_INDEX, IGNORE_INDEX]]
    with pytest.raises(ValueError, match="empty"):
        frame_items([], 0)


def test_batch_sampler_needs_the_right_arguments():
    with pytest.raises(ValueError, match="block_size"):
        batch_sampler(torch.arange(10), 2)
    with pytest.raises(ValueError, match="boundary_id"):
        batch_sampler([torch.tensor([1, 2])], 2)
    x, y = batch_sampler([torch.tensor([1, 2]), torch.tensor([3])], 4, boundary_id=0)()
    assert x.shape[0] == 4 and (x[:, 0] == 0).all()


def test_sequential_batches_visit_every_target_once():
    tokens = torch.arange(1, 51)
    targets = []
    for x, y in sequential_batches(tokens, batch_size=3, block_size=8):
        assert x.shape == y.shape
        targets += y[y != IGNORE_INDEX].tolist()
    assert targets == list(range(2, 51))
    items = [torch.tensor([1, 2]), torch.tensor([3]), torch.tensor([4, 5, 6])]
    counted = sum(int((y != IGNORE_INDEX).sum()) for _, y in sequential_batches(items, 2, boundary_id=0))
    assert counted == 2 + 1 + 3 + 3  # each item's tokens and its closing boundary
