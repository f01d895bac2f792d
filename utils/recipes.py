"""Default training recipes for the Transformer LM: model size, training loop settings and batch size.

The numbers were measured by benchmarks/bench_transformer_speed.py on the course's 2-core
CPU machine (time to a target validation loss, see that script); notebooks use these
recipes by default so students get the fast settings without hunting for them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from utils.settings import fast_mode
from utils.training import TrainConfig
from utils.transformer import TransformerConfig


@dataclass(frozen=True)
class Recipe:
    """A model config (without vocabulary), a TrainConfig and the batch size that go together."""

    model: dict  # TransformerConfig fields other than vocab_size
    train: TrainConfig
    batch_size: int

    def model_config(self, vocab_size: int, **overrides) -> TransformerConfig:
        """The TransformerConfig for a vocabulary of `vocab_size` tokens (fields in `overrides` replace the recipe's)."""
        return TransformerConfig(vocab_size=vocab_size, **{**self.model, **overrides})

    def train_config(self, **overrides) -> TrainConfig:
        """The recipe's TrainConfig with some fields replaced (e.g. steps, progress)."""
        return replace(self.train, **overrides)


_TEXT_MODEL = dict(context_length=64, n_layer=4, n_head=4, d_model=128, dropout=0.0, positional="rotary")
_ITEMS_MODEL = dict(context_length=16, n_layer=4, n_head=4, d_model=64, dropout=0.0, positional="learned")

_RECIPES = {
    # running text (pydocs, shakespeare): the nanoGPT CPU class, 4 layers x 4 heads x 128 wide, context 64.
    # Measured on Tiny Shakespeare (90/10, benchmarks/bench_transformer_speed.py, 2-core machine): this recipe
    # 1.862 in 43.3 s; nanoGPT's settings on this model 1.868 in 66.8 s. Other tries: 1000 steps 1.833;
    # 750 steps at lr 4e-3 1.903; learned positions, batch 32, lr 4e-3, 600 steps 1.891.
    # 2026-12-01, toward fewer tokens (issue 17), all worse: 600 steps at lr 7e-3 1.978; batch 32, 300 steps,
    # lr 1e-2 2.045; context 128, batch 8, 650 steps 1.952. Per token, batch 16 costs 133 us of CPU, batch 64 112 us.
    # 800 steps decaying to lr 0 (min_lr_ratio=0): 1.8846. torch.compile: 134 s to compile (cold cache), 7% per step.
    "text": Recipe(
        _TEXT_MODEL,
        TrainConfig(steps=900, lr=5e-3, warmup_steps=60, schedule="cosine", min_lr_ratio=0.1, grad_clip=1.0),
        batch_size=16,
    ),
    # items (names): makemore's transformer size, 4 layers x 4 heads x 64 wide, context 16.
    # Measured on makemore's split (benchmarks/bench_transformer_speed.py, quiet 2-core machine): this recipe
    # 1.961 in 94.5 s; batch 64, lr 3e-3: 2500 steps 2.027 (39 s), 5000 steps 1.977 (80 s); makemore's own
    # settings on this model: 2.003 after 10000 steps (117 s).
    "items": Recipe(
        _ITEMS_MODEL,
        TrainConfig(steps=3500, lr=4e-3, warmup_steps=100, schedule="cosine", min_lr_ratio=0.1, grad_clip=1.0),
        batch_size=128,
    ),
}
# The lean text model (issue 17's speed target; opt-in, transformer_recipe(..., lean=True)): 3 layers, a feed-forward
# twice (not four times) as wide, and one key/value head shared by the four query heads (multi-query attention,
# Shazeer 2019), trained exactly as the "text" recipe. 340k parameters against 810k. Measured 2026-12-01 (helper h19,
# one thread): Tiny Shakespeare val 1.8641 (seeds 1, 2: 1.8628, 1.8416); side by side with nanoGPT's recipe, three
# runs, CPU-second ratios 0.311, 0.400, 0.388 (median 0.388). The notebooks keep the "text" recipe (the standard
# block they teach): its ratio is 0.73. Other cheaper tries, one thread, 900 steps: d_ff=256 1.859; d_ff=256 and
# n_kv_head=1 1.840 (94 CPU s); the same for 800 steps 1.872 (74 s); 3 layers and d_ff=256 1.875 (84 s).
_LEAN_TEXT_MODEL = {**_TEXT_MODEL, "n_layer": 3, "d_ff": 256, "n_kv_head": 1}
# The lean items model (issue 17, names; opt-in, transformer_recipe("names", lean=True)): the same three levers on
# makemore's size, 3 layers, d_ff 128 (2x), one key/value head, 86k parameters against 205k; trained as the "items"
# recipe but at lr 6e-3 decaying to 0 (min_lr_ratio=0). Measured 2026-12-02 (helper h20, one thread, makemore's
# split, load 1-5): test 1.9625 (seeds 1, 2: 1.9632, 1.9672); side by side with makemore's default transformer
# (best test 1.9715), three runs, CPU-second ratios 0.421, 0.403, 0.385 (median 0.403); wall 0.509, 0.338, 0.371.
# Other tries, one thread, 3500 steps, this model: the recipe's lr 4e-3 decaying to 0.1x 1.9746 (186 CPU s);
# lr 8e-3 decaying to 0 1.9620 (171 CPU s). The notebooks keep the "items" recipe (2026-12-01: a median 275 CPU s,
# CPU ratio 0.62).
_LEAN_ITEMS_MODEL = {**_ITEMS_MODEL, "n_layer": 3, "d_ff": 128, "n_kv_head": 1}
_LEAN = {"text": (_LEAN_TEXT_MODEL, {}), "items": (_LEAN_ITEMS_MODEL, dict(lr=6e-3, min_lr_ratio=0.0))}
# fast mode (the test suite, LM_FAST=1): a smaller model of the same shape and a few steps
_FAST_MODEL = {"text": dict(n_layer=2, d_model=64), "items": dict(n_layer=2, d_model=32)}
_FAST_TRAIN = {"text": dict(steps=40, warmup_steps=5), "items": dict(steps=40, warmup_steps=5)}
_FAST_BATCH = 16
# The GPU recipe (CUDA; text corpora only): a launch-bound step costs about the same at batch 16 or 256, so fewer,
# bigger steps. UNTUNED HERE (no GPU in the task that added it): issue 31's probe on an H200 (batch 256, 200 steps,
# lr 1.5e-2) reached val 1.847 in 13.4 s of process, 3.8 s of it training. The probe stated only these three; the
# other fields stay the CPU recipe's. The notebooks keep their CPU recipes: only bench_transformer_speed.py asks for it.
_GPU_TEXT = dict(batch_size=256, steps=200, lr=1.5e-2)
_CORPUS_KIND = {"pydocs": "text", "shakespeare": "text", "names": "items"}


def transformer_recipe(corpus: str = "pydocs", fast: bool | None = None, lean: bool = False,
                       device: str | None = None) -> Recipe:
    """The default recipe for a corpus; fast (default: utils.settings.fast_mode()) gives a smaller model and few steps;
    lean the cheaper model (_LEAN_TEXT_MODEL trained the same way; _LEAN_ITEMS_MODEL at lr 6e-3 decaying to 0);
    device "cuda" (or "cuda:N") the GPU recipe for text corpora (_GPU_TEXT), any other device the CPU one."""
    if corpus not in _CORPUS_KIND:
        raise ValueError(f"no Transformer recipe for corpus {corpus!r}: choose one of {', '.join(sorted(_CORPUS_KIND))}")
    kind = _CORPUS_KIND[corpus]
    recipe = _RECIPES[kind]
    if lean:
        model, train_changes = _LEAN[kind]
        recipe = Recipe(model, replace(recipe.train, **train_changes), recipe.batch_size)
    if fast if fast is not None else fast_mode():
        model = {**recipe.model, **_FAST_MODEL[kind]}
        recipe = Recipe(model, replace(recipe.train, **_FAST_TRAIN[kind]), _FAST_BATCH)
    elif kind == "text" and device is not None and device.split(":")[0] == "cuda":
        gpu = dict(_GPU_TEXT)
        recipe = Recipe(recipe.model, replace(recipe.train, steps=gpu["steps"], lr=gpu["lr"]), gpu["batch_size"])
    return recipe


__all__ = ["Recipe", "transformer_recipe"]
