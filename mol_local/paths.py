"""Where mol-local keeps its files: platformdirs' user data dir, or MOL_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def mol_home() -> Path:
    """The data directory; created on first use. MOL_HOME overrides it (tests do)."""
    override = os.environ.get("MOL_HOME")
    home = Path(override) if override else Path(platformdirs.user_data_dir("mol-local"))
    home.mkdir(parents=True, exist_ok=True)
    return home


def db_path() -> Path:
    return mol_home() / "mol.db"


def offline_env() -> None:
    """Make sure nothing we import reaches for a network (Hugging Face, Chroma telemetry)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
