"""Notebook 01's widget on the static site: the precomputed bits its browser view draws are the kernel's."""

import random

import pytest
import torch

from utils.baselines import BaselineConfig, UniformLM, UnigramLM
from utils.precision_check import check_same
from utils.tokenizers import CharTokenizer
from utils.widgets.autoregression import autoregression_widget, readable, token_surprisals
from utils.widgets.kernel_only import NEEDS_KERNEL


@pytest.fixture
def setup():
    tok = CharTokenizer.from_text("abcd ")
    unigram = UnigramLM.fit(torch.tensor([0, 1, 1, 1, 2, 3, 4]), tok.vocab_size, k=1.0)
    return tok, {"uniform": UniformLM(BaselineConfig(tok.vocab_size)), "unigram": unigram}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_payload_equals_the_kernel_path_for_each_model(setup, seed):
    tok, models = setup
    rng = random.Random(seed)
    text = "".join(rng.choice("abcd ") for _ in range(rng.randint(2, 12)))
    explorer = autoregression_widget(models, tok, text)
    payload = explorer.site_view.payload
    symbols, _ = token_surprisals(models["uniform"], tok, text)
    assert payload["symbols"] == [readable(s) for s in symbols]
    assert set(payload["scores"]) == set(models)
    for name, model in models.items():
        check_same(torch.tensor(payload["scores"][name]), token_surprisals(model, tok, text)[1],
                   f"the site payload and token_surprisals for {name}")
    assert payload["ymax"] >= max(max(bits) for bits in payload["scores"].values())


def test_a_new_text_refreshes_the_payload_and_only_the_text_box_needs_the_kernel(setup):
    tok, models = setup
    explorer = autoregression_widget(models, tok, "abba")
    explorer.text_box.value = "dcba d"
    check_same(torch.tensor(explorer.site_view.payload["scores"]["unigram"]),
               token_surprisals(models["unigram"], tok, "dcba d")[1], "the refreshed payload and the kernel path")
    assert NEEDS_KERNEL in explorer.text_box._dom_classes
    assert NEEDS_KERNEL not in explorer.model_picker._dom_classes
    explorer.model_picker.value = "unigram"
    assert explorer.site_view.payload["models"][explorer.model_picker.index] == "unigram"  # the Python side of the link; the browser test covers the site
