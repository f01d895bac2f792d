"""Test-suite settings shared by unit tests and the notebooks run by nbval.

Set before any kernel starts, so notebook kernels inherit them:
    LM_DATA_MIRROR  -> ../shared/data when that folder exists (offline corpora)
    LM_FAST=1       -> notebooks use their documented fast sizes (see utils.settings)
    MPLBACKEND=Agg  -> no windows
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SHARED_DATA = ROOT.parent / "shared" / "data"

if "LM_DATA_MIRROR" not in os.environ and SHARED_DATA.is_dir():
    os.environ["LM_DATA_MIRROR"] = str(SHARED_DATA)
os.environ.setdefault("LM_FAST", "1")
os.environ.setdefault("MPLBACKEND", "Agg")
