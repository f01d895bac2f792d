"""The shared model interface with the baselines: validation, loss, evaluation, sampling, training, checkpoints."""

import math
from dataclasses import dataclass

import pytest
import torch
from torch import nn

from utils.baselines import BaselineConfig, UniformLM, UnigramLM
from utils.batching import batch_sampler
from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.dataset import load_dataset
from utils.evaluation import Metrics, evaluate, evaluate_split
from utils.interface import LanguageModel, register_model
from utils.sampling import generate, generate_text
from utils.tokenizers import CharTokenizer
from utils.training import TrainConfig, autocast_dtype, learning_rate, train


@dataclass
class TinyConfig:
    vocab_size: int
    width: int = 16


@register_model
class TinyBigramLM(LanguageModel):
    """A trainable bigram table: enough to exercise the shared training code."""

    config_class = TinyConfig

    def __init__(self, config: TinyConfig):
        super().__init__()
        self.config, self.vocab_size = config, config.vocab_size
        self.table = nn.Embedding(config.vocab_size, config.vocab_size)

    def forward(self, idx):
        self.validate_input(idx)
        return self.table(idx)


@pytest.fixture(scope="module")
def pydocs():
    return load_dataset()


def test_uniform_perplexity_is_the_vocabulary_size(pydocs):
    metrics = evaluate_split(UniformLM(BaselineConfig(pydocs.vocab_size)), pydocs, "val")
    assert metrics.perplexity == pytest.approx(pydocs.vocab_size, rel=1e-6)
    assert metrics.tokens == pydocs.num_tokens("val")
    assert metrics.bits_per_token == pytest.approx(math.log2(pydocs.vocab_size))


def test_unigram_fit_matches_frequencies_and_beats_uniform(pydocs):
    tokens = torch.tensor([0, 0, 1, 2])
    model = UnigramLM.fit(tokens, vocab_size=4)
    assert torch.allclose(model.log_probs.exp(), torch.tensor([0.5, 0.25, 0.25, 0.0]))
    unigram = UnigramLM.fit(pydocs.train, pydocs.vocab_size, k=1.0)
    assert evaluate_split(unigram, pydocs, "val").perplexity < pydocs.vocab_size / 2
    with pytest.raises(ValueError, match="no tokens"):
        UnigramLM.fit(torch.tensor([], dtype=torch.long), 3)


def test_validate_input_says_what_is_wrong():
    model = UniformLM(BaselineConfig(5))
    with pytest.raises(ValueError, match="integer tensor"):
        model(torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"shape \(B, T\)"):
        model(torch.zeros(3, dtype=torch.long))
    with pytest.raises(ValueError, match=r"\[0, 5\)"):
        model(torch.tensor([[0, 5]]))
    model.context_length = 2
    with pytest.raises(ValueError, match="longer than the model's context of 2"):
        model(torch.zeros(1, 3, dtype=torch.long))


def test_metrics_arithmetic():
    metrics = Metrics(nll=math.log(10), tokens=7)
    assert metrics.perplexity == pytest.approx(10) and "perplexity 10.000" in str(metrics)
    assert Metrics(1e4, 1).perplexity == math.inf


def test_evaluate_items_counts_boundaries():
    items = [torch.tensor([1, 2]), torch.tensor([3])]
    metrics = evaluate(UniformLM(BaselineConfig(4)), items, boundary_id=0)
    assert metrics.tokens == 5 and metrics.perplexity == pytest.approx(4)
    with pytest.raises(ValueError, match="at least 2 tokens"):
        evaluate(UniformLM(BaselineConfig(4)), torch.tensor([1]))


def test_training_lowers_the_loss_and_records_history():
    torch.manual_seed(0)
    tokens = torch.tensor([0, 1, 2, 3] * 50)  # a deterministic cycle: a bigram model learns it
    model = TinyBigramLM(TinyConfig(4))
    batches = batch_sampler(tokens, 8, 8, generator=torch.Generator().manual_seed(0))
    history = train(model, batches, TrainConfig(steps=60, lr=0.1, eval_every=20, progress=False), val_batches=batches)
    assert len(history.train_loss) == 60 and history.val_steps == [19, 39, 59]
    assert history.final_val_loss < 0.2 < history.train_loss[0]
    assert history.tokens_seen == 60 * 8 * 8 and not model.training


def test_training_stops_on_time_budget_and_divergence():
    tokens = torch.arange(10).repeat(20)
    model = TinyBigramLM(TinyConfig(10))
    batches = batch_sampler(tokens, 4, 4)
    history = train(model, batches, TrainConfig(steps=10_000, time_budget_s=0.2, progress=False))
    assert history.stop_reason == "time budget" and len(history.steps) < 10_000
    with torch.no_grad():
        model.table.weight.fill_(float("nan"))
    history = train(model, batches, TrainConfig(steps=50, progress=False))
    assert history.diverged and len(history.steps) == 1


def test_fitted_models_cannot_be_trained_and_configs_are_checked():
    with pytest.raises(ValueError, match="no trainable parameters"):
        train(UnigramLM.fit(torch.tensor([0, 1]), 2), lambda: None, TrainConfig(steps=1, progress=False))
    with pytest.raises(ValueError, match="steps"):
        TrainConfig(steps=0)
    with pytest.raises(ValueError, match="schedule"):
        TrainConfig(schedule="linear")


def test_learning_rate_warms_up_then_decays_to_the_floor():
    config = TrainConfig(steps=100, lr=1.0, warmup_steps=10, min_lr_ratio=0.1)
    rates = [learning_rate(s, config) for s in range(100)]
    assert rates[0] == pytest.approx(0.1) and rates[9] == pytest.approx(1.0)
    assert all(a >= b for a, b in zip(rates[10:], rates[11:]))
    assert rates[-1] == pytest.approx(0.1, abs=0.01)


def test_generate_with_the_shared_sampler(pydocs):
    model = UnigramLM.fit(pydocs.train, pydocs.vocab_size)
    out = generate(model, [1, 2], 20, generator=torch.Generator().manual_seed(0))
    assert out.shape == (1, 22) and out[0, :2].tolist() == [1, 2]
    again = generate(model, [1, 2], 20, generator=torch.Generator().manual_seed(0))
    assert torch.equal(out, again)
    greedy = generate(model, [1], 5, temperature=0)
    assert (greedy[0, 1:] == model.log_probs.argmax()).all()
    with pytest.raises(ValueError, match="empty"):
        generate(model, [], 5)


def test_generate_text_on_items_stops_at_the_boundary():
    tok = CharTokenizer.from_text("ab", boundary=".")
    model = UnigramLM.fit(torch.tensor([0] + [1, 2] * 10), tok.vocab_size)  # boundary p = 1/21
    text = generate_text(model, tok, "a", 50, generator=torch.Generator().manual_seed(3))
    assert text.startswith("a") and len(text) > 1 and "." not in text


def test_checkpoint_round_trip_and_errors(tmp_path):
    model = TinyBigramLM(TinyConfig(6))
    path = save_checkpoint(tmp_path / "ckpt" / "tiny.pt", model, step=3)
    loaded, meta = load_checkpoint(path)
    assert meta == {"step": 3} and torch.equal(loaded.table.weight, model.table.weight)
    assert [p.name for p in path.parent.iterdir()] == ["tiny.pt"]  # no temp files left
    with pytest.raises(FileNotFoundError, match="train the model first"):
        load_checkpoint(tmp_path / "missing.pt")
    (tmp_path / "broken.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        load_checkpoint(tmp_path / "broken.pt")


def test_unregistered_models_cannot_be_checkpointed(tmp_path):
    class Loose(TinyBigramLM):
        pass

    with pytest.raises(ValueError, match="not registered"):
        save_checkpoint(tmp_path / "x.pt", Loose(TinyConfig(3)))


def test_training_uses_bf16_autocast_only_on_cuda_gpus_that_support_it(monkeypatch):
    assert autocast_dtype(torch.device("cpu")) is None
    assert autocast_dtype(torch.device("mps")) is None
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: True)
    assert autocast_dtype(torch.device("cuda")) is torch.bfloat16
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: False)  # e.g. a pre-Ampere GPU
    assert autocast_dtype(torch.device("cuda")) is None
