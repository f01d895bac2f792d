"""The recipe chooser: the CPU recipe on cpu, the GPU recipe (issue 31's probe) for cuda; no CUDA needed."""

from __future__ import annotations

from utils.recipes import transformer_recipe


def test_cpu_gets_the_cpu_recipe():
    """cpu (and no device) give the notebooks' recipe: batch 16, 900 steps, lr 5e-3."""
    for device in (None, "cpu", "mps"):
        recipe = transformer_recipe("shakespeare", fast=False, device=device)
        assert (recipe.batch_size, recipe.train.steps, recipe.train.lr) == (16, 900, 5e-3), device


def test_cuda_gets_the_gpu_recipe():
    """cuda and cuda:1 give batch 256, 200 steps, lr 1.5e-2, the same model; fast mode and names stay as they were."""
    cpu = transformer_recipe("shakespeare", fast=False, device="cpu")
    for device in ("cuda", "cuda:1"):
        gpu = transformer_recipe("shakespeare", fast=False, device=device)
        assert (gpu.batch_size, gpu.train.steps, gpu.train.lr) == (256, 200, 1.5e-2), device
        assert gpu.model == cpu.model and gpu.train.warmup_steps == cpu.train.warmup_steps
    assert transformer_recipe("shakespeare", fast=True, device="cuda") == transformer_recipe("shakespeare", fast=True)
    assert transformer_recipe("names", fast=False, device="cuda") == transformer_recipe("names", fast=False)
