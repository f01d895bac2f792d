"""Small trained models of every family of the course, trained once and then loaded from a checkpoint cache.

Families: "ngram" (Kneser-Ney), "window_mlp" (fixed window), "rnn" (tanh), "gru" (gated)
and "transformer". Each is built from a fixed recipe per mode (full or fast), trained with
the same budget of training tokens for every neural family (steps x batch x block =
TOKEN_BUDGET[mode], so the comparison of notebook 11 is fair), trained with
utils.training.train on the corpus's fixed split, and saved atomically (utils.checkpoint)
in the cache folder under a name that hashes family, recipe, corpus and mode, so a change
to any of them trains a new model. Cache folder: $LM_CHECKPOINT_DIR, else
~/.cache/lm-course/checkpoints.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from utils.batching import batch_sampler
from utils.checkpoint import load_checkpoint, save_checkpoint
from utils.dataset import Dataset
from utils.interface import LanguageModel
from utils.ngram import NGramLM
from utils.resumable import ResumableRun
from utils.rnn import RNNConfig, RNNLM
from utils.settings import fast_mode
from utils.training import TrainConfig, make_optimizer, train
from utils.transformer import TransformerConfig, TransformerLM
from utils.window_mlp import WindowMLPConfig, WindowMLPLM

CHECKPOINT_ENV_VAR = "LM_CHECKPOINT_DIR"
FAMILIES = ("ngram", "window_mlp", "rnn", "gru", "transformer")
ZOO_VERSION = 2  # bump to invalidate every cached model
TOKEN_BUDGET = {"full": 400 * 32 * 64, "fast": 60 * 32 * 64}  # training tokens of every neural family (full: 09 trains two in <= 1 min)


@dataclass(frozen=True)
class ZooRecipe:
    """How one family's zoo model is built and trained."""

    family: str
    model: dict  # config fields other than vocab_size (for "ngram": NGramLM.fit settings)
    steps: int = 0  # optimisation steps (0 for the counted n-gram model)
    lr: float = 3e-3
    batch_size: int = 32
    block_size: int = 64
    seed: int = 0

    @property
    def train_tokens(self) -> int:
        """Tokens the training reads: steps x batch x block (0 for the counted n-gram model)."""
        return self.steps * self.batch_size * self.block_size

    def key(self, corpus: str, fast: bool) -> str:
        """A short hash naming this recipe on this corpus in this mode."""
        text = json.dumps([ZOO_VERSION, dataclasses.asdict(self), corpus, fast], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def zoo_recipe(family: str, fast: bool | None = None) -> ZooRecipe:
    """The recipe of a family: small models, TOKEN_BUDGET training tokens each (400 steps full, 60 fast)."""
    fast = fast_mode() if fast is None else fast
    s = (lambda full, quick: quick if fast else full)
    budget = TOKEN_BUDGET["fast" if fast else "full"]
    steps = lambda batch, block: budget // (batch * block)  # the same tokens for every neural family
    recipes = {
        "ngram": ZooRecipe("ngram", {"n": s(5, 4), "smoothing": "kneser_ney"}),
        "window_mlp": ZooRecipe("window_mlp", {"window": 8, "d_embed": 16, "d_hidden": s(256, 128)}, steps(64, 32), 3e-3, 64, 32),
        "rnn": ZooRecipe("rnn", {"d_embed": 32, "d_hidden": s(192, 96), "cell": "tanh"}, steps(32, 64), 3e-3, 32, 64),
        "gru": ZooRecipe("gru", {"d_embed": 32, "d_hidden": s(192, 96), "cell": "gru"}, steps(32, 64), 3e-3, 32, 64),
        "transformer": ZooRecipe(
            "transformer",
            {"context_length": 64, "n_layer": s(3, 2), "n_head": 4, "d_model": s(96, 48), "positional": "rotary"},
            steps(32, 64), 3e-3, 32, 64,
        ),
    }
    if family not in recipes:
        raise ValueError(f"unknown model family {family!r}: choose one of {', '.join(FAMILIES)}")
    return recipes[family]


def checkpoint_dir() -> Path:
    """Where zoo checkpoints live: $LM_CHECKPOINT_DIR or ~/.cache/lm-course/checkpoints."""
    configured = os.environ.get(CHECKPOINT_ENV_VAR)
    return Path(configured) if configured else Path.home() / ".cache" / "lm-course" / "checkpoints"


def build_model(recipe: ZooRecipe, vocab_size: int) -> LanguageModel:
    """An untrained model of the recipe's family."""
    if recipe.family == "window_mlp":
        return WindowMLPLM(WindowMLPConfig(vocab_size, **recipe.model))
    if recipe.family in ("rnn", "gru"):
        return RNNLM(RNNConfig(vocab_size, **recipe.model))
    if recipe.family == "transformer":
        return TransformerLM(TransformerConfig(vocab_size, **recipe.model))
    raise ValueError(f"{recipe.family!r} models are counted, not built and trained")


def fit_model(recipe: ZooRecipe, dataset: Dataset, progress: bool = False,
              resumable: ResumableRun | None = None) -> tuple[LanguageModel, dict[str, Any]]:
    """Train (or count) the recipe's model on the dataset's training split; returns the model and what it cost.

    With `resumable`, the run's state is saved on the way and an interrupted run is picked up where it stopped."""
    torch.manual_seed(recipe.seed)
    boundary = dataset.tokenizer.boundary_id if dataset.kind == "items" else None
    start = time.perf_counter()
    if recipe.family == "ngram":
        settings = dict(recipe.model)
        if boundary is not None:
            settings["boundary_id"] = boundary
        model = NGramLM.fit(dataset.train, dataset.vocab_size, **settings)
        counted = dataset.train.numel() if torch.is_tensor(dataset.train) else sum(item.numel() for item in dataset.train)
        info = {"steps": 0, "train_tokens": int(counted)}  # counted once over the whole split
    else:
        model = build_model(recipe, dataset.vocab_size)
        generator = torch.Generator().manual_seed(recipe.seed)
        batches = batch_sampler(dataset.train, recipe.batch_size, recipe.block_size, boundary, generator)
        config = TrainConfig(steps=recipe.steps, lr=recipe.lr, warmup_steps=recipe.steps // 10, progress=progress,
                             eval_every=recipe.steps + 1)
        optimizer = make_optimizer(model, config)
        saved = resumable.load() if resumable is not None else None
        first = resumable.restore(saved, model, optimizer, generator) if saved is not None else 0
        earlier_s = saved["seconds"] if saved is not None else 0.0
        save = None if resumable is None else (lambda step, _loss: resumable.maybe_save(
            step + 1, model, optimizer, generator, earlier_s + time.perf_counter() - start))
        history = train(model, batches, config, optimizer=optimizer, on_step=save, start_step=first)
        info = {"steps": recipe.steps, "train_tokens": recipe.train_tokens, "final_train_loss": history.train_loss[-1],
                "resumed_at_step": first}
        start -= earlier_s
    info["train_seconds"] = time.perf_counter() - start
    return model.eval(), info


def load_or_train(
    family: str, dataset: Dataset, fast: bool | None = None, cache_dir: str | os.PathLike | None = None,
    progress: bool = False,
) -> tuple[LanguageModel, dict[str, Any]]:
    """The family's zoo model for `dataset`: loaded from the cache, or trained now and cached (atomically)."""
    fast = fast_mode() if fast is None else fast
    recipe = zoo_recipe(family, fast)
    folder = Path(cache_dir) if cache_dir is not None else checkpoint_dir()
    path = folder / f"{family}-{dataset.name}-{'fast' if fast else 'full'}-{recipe.key(dataset.name, fast)}.pt"
    if path.exists():
        try:
            model, metadata = load_checkpoint(path)
            if model.vocab_size == dataset.vocab_size:
                return model, {**metadata, "from_cache": True, "path": str(path)}
        except ValueError:
            pass  # a truncated or foreign file: train again and replace it
    resumable = ResumableRun(path, recipe.key(dataset.name, fast))
    model, info = fit_model(recipe, dataset, progress, resumable)
    save_checkpoint(path, model, family=family, corpus=dataset.name, fast=fast, **info)
    resumable.clear()
    return model, {**info, "family": family, "corpus": dataset.name, "fast": fast, "from_cache": False, "path": str(path)}


def load_zoo(dataset: Dataset, families: tuple[str, ...] = FAMILIES, **kwargs) -> dict[str, tuple[LanguageModel, dict]]:
    """load_or_train() for several families: {family: (model, info)}."""
    return {family: load_or_train(family, dataset, **kwargs) for family in families}
