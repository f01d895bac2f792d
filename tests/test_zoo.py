"""The model zoo trains each family once, caches it atomically and loads it back identical."""

import pytest
import torch

from utils.dataset import load_dataset
from utils.zoo import FAMILIES, checkpoint_dir, load_or_train, zoo_recipe


@pytest.fixture(scope="module")
def dataset():
    return load_dataset("pydocs")


def test_recipes_and_keys():
    assert set(FAMILIES) == {"ngram", "window_mlp", "rnn", "gru", "transformer"}
    assert zoo_recipe("rnn", fast=True).key("pydocs", True) != zoo_recipe("rnn", fast=False).key("pydocs", False)
    assert zoo_recipe("rnn", fast=True).key("pydocs", True) != zoo_recipe("rnn", fast=True).key("names", True)
    with pytest.raises(ValueError, match="unknown model family"):
        zoo_recipe("lstm")


def test_checkpoint_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("LM_CHECKPOINT_DIR", str(tmp_path))
    assert checkpoint_dir() == tmp_path


@pytest.mark.parametrize("family", ["ngram", "rnn"])
def test_train_then_load_from_cache(family, dataset, tmp_path):
    model, info = load_or_train(family, dataset, fast=True, cache_dir=tmp_path)
    assert not info["from_cache"] and info["train_seconds"] > 0
    files = list(tmp_path.glob("*.pt"))
    assert len(files) == 1 and not list(tmp_path.glob("*.part"))  # written atomically, no leftovers
    again, info2 = load_or_train(family, dataset, fast=True, cache_dir=tmp_path)
    assert info2["from_cache"] and info2["train_seconds"] == pytest.approx(info["train_seconds"])
    x = dataset.val[:40][None]
    assert torch.allclose(model(x), again(x), atol=1e-6)


def test_a_corrupt_cache_file_is_replaced(dataset, tmp_path):
    _, info = load_or_train("ngram", dataset, fast=True, cache_dir=tmp_path)
    path = tmp_path / info["path"].split("/")[-1]
    path.write_bytes(b"not a checkpoint")
    model, info2 = load_or_train("ngram", dataset, fast=True, cache_dir=tmp_path)
    assert not info2["from_cache"] and model(dataset.val[:10][None]).shape == (1, 10, dataset.vocab_size)


@pytest.mark.parametrize("fast", [True, False])
def test_every_neural_family_trains_on_the_same_token_budget(fast):
    from utils.zoo import TOKEN_BUDGET

    budgets = {family: zoo_recipe(family, fast).train_tokens for family in FAMILIES if family != "ngram"}
    assert set(budgets.values()) == {TOKEN_BUDGET["fast" if fast else "full"]}, budgets



def test_ngram_counts_the_tokens_of_an_items_corpus(tmp_path):
    quatrains = load_dataset("tang5")  # items: a list of id tensors; embedded, so it runs offline without a mirror
    assert quatrains.kind == "items"
    _, info = load_or_train("ngram", quatrains, fast=True, cache_dir=tmp_path)
    assert info["train_tokens"] == sum(item.numel() for item in quatrains.train)
