import random

import numpy as np
import pytest
import torch

from utils.device import get_device, set_seed


def test_auto_device_is_cpu_without_accelerators(monkeypatch):
    monkeypatch.delenv("LM_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr("utils.device._mps_available", lambda: False)
    assert get_device() == torch.device("cpu")


def test_auto_device_prefers_cuda_then_mps(monkeypatch):
    monkeypatch.delenv("LM_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert get_device().type == "cuda"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr("utils.device._mps_available", lambda: True)
    assert get_device().type == "mps"


def test_env_override(monkeypatch):
    monkeypatch.setenv("LM_DEVICE", "cpu")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert get_device() == torch.device("cpu")


def test_bad_device_names_and_unavailable_devices(monkeypatch):
    with pytest.raises(ValueError, match="unknown device"):
        get_device("tpu")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ValueError, match="CUDA is not available"):
        get_device("cuda")
    monkeypatch.setenv("LM_DEVICE", "gpu")
    with pytest.raises(ValueError, match="LM_DEVICE"):
        get_device()


def test_set_seed_makes_python_numpy_torch_repeatable():
    def draw():
        return random.random(), float(np.random.rand()), float(torch.rand(1))

    set_seed(123)
    first = draw()
    set_seed(123)
    assert draw() == first
    generator = set_seed(7)
    assert torch.equal(torch.rand(3, generator=generator), torch.rand(3, generator=torch.Generator().manual_seed(7)))
    with pytest.raises(ValueError):
        set_seed(-1)
