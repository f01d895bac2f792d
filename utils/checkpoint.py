"""Save a model with its config, atomically; load it back with torch.load(weights_only=True)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import torch

from utils.i18n.text import tr
from utils.interface import MODEL_REGISTRY, LanguageModel


def save_checkpoint(path: str | os.PathLike, model: LanguageModel, **metadata: Any) -> Path:
    """Write model class, config, weights and plain-data metadata to `path` (temp file, then rename)."""
    path = Path(path)
    name = type(model).__name__
    if MODEL_REGISTRY.get(name) is not type(model):
        raise ValueError(f"{name} is not registered; decorate its class with @utils.interface.register_model")
    payload = {
        "model_class": name,
        "config": model.config_dict(),
        "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
        "metadata": metadata,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".part", dir=path.parent)
    os.close(handle)
    try:
        torch.save(payload, temp_name)
        os.replace(temp_name, path)
    finally:
        if os.path.exists(temp_name):
            os.unlink(temp_name)
    return path


def load_checkpoint(path: str | os.PathLike, device: torch.device | str = "cpu") -> tuple[LanguageModel, dict[str, Any]]:
    """Rebuild the model saved at `path` (weights only, no pickled code); return (model, metadata)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(tr("no checkpoint at {path}; train the model first or check the path", path=path))
    try:
        payload = torch.load(path, map_location=device, weights_only=True)
    except Exception as error:  # a truncated or foreign file
        raise ValueError(tr("{path} is not a readable checkpoint ({error}); delete it and train again", path=path,
                            error=error)) from error
    name = payload.get("model_class")
    if name not in MODEL_REGISTRY:
        raise ValueError(f"checkpoint {path} holds unknown model class {name!r}; import the module defining it first")
    cls = MODEL_REGISTRY[name]
    if hasattr(cls, "from_checkpoint"):  # models whose sizes depend on data (n-gram tables)
        model = cls.from_checkpoint(payload["config"], payload["state_dict"])
    else:
        if cls.config_class is None:
            raise ValueError(f"{name} needs a `config_class` attribute (or a from_checkpoint classmethod)")
        model = cls(cls.config_class(**payload["config"]))
        model.load_state_dict(payload["state_dict"])
    return model.to(device).eval(), payload.get("metadata", {})
