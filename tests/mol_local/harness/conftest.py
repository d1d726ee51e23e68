"""Harness fixtures: a real sandbox process in tmp_path, a real ToolHub on the real SQLite store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from memory.db import open_db
from mol_local.harness.hub import ToolHub
from mol_local.harness.limits import ToolLimits, ToolsConfig
from mol_local.harness.runner import Harness
from mol_local.harness.sandbox import Sandbox
from mol_local.paths import db_path
from mol_local.turn.tasks import ToolCall

# Small limits so every limit fires within about a second.
FAST = ToolLimits(timeout_s=2.5, cpu_s=0.5, memory_mb=256, output_kb=8)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return tmp_path / "mol-home" / "workspace" / "conv"


@pytest.fixture
def sandbox(workspace: Path, mol_home: Path) -> Iterator[Sandbox]:
    box = Sandbox(workspace, FAST, protect=(mol_home,))
    yield box
    box.close()


@pytest.fixture
def db(mol_home: Path):
    database = open_db(db_path())
    yield database
    database.close()


@pytest.fixture
def hub(db, mol_home: Path) -> Iterator[ToolHub]:
    config = ToolsConfig(default_limits=FAST)
    h = ToolHub(db, config, home=mol_home)
    yield h
    h.close()


@pytest.fixture
def harness(hub: ToolHub) -> Harness:
    return hub.runner("conv")


def call(harness: Harness, name: str, args: dict | None = None, *, slot: str = "L2") -> tuple[str, str]:
    """Run one tool call the way the turn loop does; returns (text for the model, audit status)."""
    return harness.run_detailed(ToolCall(name, args or {}, ""), slot=slot)
