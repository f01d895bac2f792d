"""A zoo model's training interrupted on the way resumes from its partial checkpoint and ends where an
uninterrupted run ends (the first full run of notebook 09 can take many minutes on a busy machine)."""

from __future__ import annotations

import pytest
import torch

import utils.resumable
import utils.zoo
from utils.dataset import load_dataset
from utils.zoo import fit_model, load_or_train, zoo_recipe


class Interrupted(Exception):
    """Stands for a kernel interrupt in the middle of a training."""


def test_an_interrupted_training_resumes_to_the_same_weights(tmp_path, monkeypatch):
    dataset = load_dataset("pydocs")
    recipe = zoo_recipe("transformer", fast=True)
    uninterrupted, _ = fit_model(recipe, dataset)

    monkeypatch.setattr(utils.resumable, "SAVE_EVERY_S", 0.0)  # save after every step
    real_sampler, calls = utils.zoo.batch_sampler, []

    def stopping_sampler(*args, **kwargs):
        sample = real_sampler(*args, **kwargs)

        def batches():
            calls.append(1)
            if len(calls) == 25:
                raise Interrupted
            return sample()
        return batches

    monkeypatch.setattr(utils.zoo, "batch_sampler", stopping_sampler)
    with pytest.raises(Interrupted):
        load_or_train("transformer", dataset, fast=True, cache_dir=tmp_path)
    partial = list(tmp_path.glob("*.partial.pt"))
    assert len(partial) == 1 and not [p for p in tmp_path.glob("*.pt") if p not in partial], (
        "an interrupted run must leave its partial state, and no final checkpoint")
    assert torch.load(partial[0], weights_only=True)["next_step"] == 24

    monkeypatch.setattr(utils.zoo, "batch_sampler", real_sampler)
    resumed, info = load_or_train("transformer", dataset, fast=True, cache_dir=tmp_path)
    assert info["resumed_at_step"] == 24 and not info["from_cache"]
    assert not list(tmp_path.glob("*.partial.pt")), "the partial state must go once the checkpoint is saved"
    for (name, ours), theirs in zip(resumed.state_dict().items(), uninterrupted.state_dict().values()):
        assert torch.equal(ours, theirs), f"{name} differs from the uninterrupted run's"


def test_a_partial_state_of_another_recipe_is_ignored(tmp_path):
    run = utils.resumable.ResumableRun(tmp_path / "model.pt", key="a", every_s=0)
    model = torch.nn.Linear(2, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    assert run.maybe_save(3, model, optimizer, torch.Generator(), seconds=1.0)
    assert run.load()["next_step"] == 3
    assert utils.resumable.ResumableRun(tmp_path / "model.pt", key="b").load() is None
    run.path.write_bytes(b"truncated")
    assert run.load() is None
