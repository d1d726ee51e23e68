"""Catalog fixtures: a `mol` runner (the gemma3 270M fixture is in tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

MOL = [sys.executable, "-m", "mol_local.cli"]


@pytest.fixture
def mol(mol_home: Path, tmp_path: Path):
    """Run the real `mol` CLI in a child with this test's MOL_HOME and a HOME with no model stores."""
    home = tmp_path / "user-home"
    home.mkdir(exist_ok=True)

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        full = {**os.environ, "MOL_HOME": str(mol_home), "HOME": str(home), "HF_HUB_OFFLINE": "1", **(env or {})}
        for var in ("OLLAMA_MODELS", "HF_HUB_CACHE", "HF_HOME", "MOL_HCP"):
            if var not in (env or {}):
                full.pop(var, None)
        return subprocess.run([*MOL, *args], capture_output=True, text=True, env=full, timeout=300)

    run.home = home  # type: ignore[attr-defined]
    return run
