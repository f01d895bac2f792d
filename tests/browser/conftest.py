"""Fixtures shared by the browser tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where screenshots are written: $LM_SCREENSHOT_DIR, or a pytest tmp folder."""
    folder = Path(os.environ.get("LM_SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
