"""utils.norm_audit: the layers of notebook 07's exercise 4 have the problems their kind says, and the probe finds them."""

import itertools

import torch

from utils.exercise_cases import sample_grid
from utils.norm_audit import PROBLEMS, STATISTICS, generated_normaliser, make_normaliser, probe_problems, problems_of


def test_problems_of_every_kind():
    assert problems_of("token", False, False) == frozenset()
    assert problems_of("token", True, True) == {"train_eval"}
    assert problems_of("sequence", False, False) == {"padding"}
    assert problems_of("batch", True, False) == {"batch"}
    assert problems_of("batch", False, True) == set(PROBLEMS)


def test_token_layer_is_layer_norm():
    x, mask = torch.randn(3, 5, 8) * 2 + 1, torch.ones(3, 5, dtype=torch.bool)
    gain, bias = torch.rand(8) + 0.5, torch.rand(8) - 0.5
    norm = make_normaliser("token", False, False, 8, 0, gain=gain, bias=bias)
    assert torch.allclose(norm(x, mask), torch.nn.functional.layer_norm(x, (8,), gain, bias), atol=1e-5)


def test_masked_batch_layer_is_batch_norm_over_the_real_tokens():
    x, mask = torch.randn(2, 6, 4), torch.tensor([[True] * 6, [True] * 3 + [False] * 3])
    norm = make_normaliser("batch", True, False, 4, 0, gain=torch.ones(4), bias=torch.zeros(4))
    real = x[mask]  # (N, C)
    expected = (real - real.mean(0)) / torch.sqrt(real.var(0, unbiased=False) + 1e-5)
    assert torch.allclose(norm(x, mask)[mask], expected, atol=1e-5)


def test_probe_finds_every_kind_with_a_wide_margin():
    for statistics, masked, running, width, warm in itertools.product(STATISTICS, (False, True), (False, True),
                                                                       (2, 8, 32), ("standard", "shifted")):
        for tolerance in (1e-5, 0.1):  # the probe's changes: 0 up to rounding, or far above 0.1
            norm = generated_normaliser(statistics, masked, running, width, warm, seed=width)
            assert probe_problems(norm, width, tolerance) == problems_of(statistics, masked, running)


def test_hidden_grid_covers_every_answer():
    sizes = sample_grid(31, 48, statistics=STATISTICS, masked=(False, True), running=(False, True),
                        width=(2, 4, 8, 16, 32), warm=("standard", "shifted"))  # notebook 07's exercise 4
    answers = {problems_of(c.kwargs["statistics"], c.kwargs["masked"], c.kwargs["running"]) for c in sizes}
    assert len(answers) == 8  # every subset of the three problems
    for seed, case in enumerate(sizes, start=700):
        kw = case.kwargs
        norm = generated_normaliser(kw["statistics"], kw["masked"], kw["running"], kw["width"], kw["warm"], seed)
        assert probe_problems(norm, kw["width"]) == problems_of(kw["statistics"], kw["masked"], kw["running"])
