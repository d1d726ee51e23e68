"""Fixtures for HCP tests: a version store in MOL_HOME, the CLI in-process, a usable `tall`-shaped HCP."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hcp.store import VersionStore

PROFILES = Path(__file__).parents[2] / "hcp" / "profiles"


@pytest.fixture
def store(mol_home: Path) -> VersionStore:
    return VersionStore(mol_home)


@pytest.fixture
def mol():
    """Run `mol ARGS...` in-process (same click group and error edge as the real entry point)."""
    from mol_local.cli import cli, import_commands

    import_commands()
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def tall_on_disk(tmp_path: Path, base_model_path: Path, lora_dir: Path) -> Path:
    """The shipped `tall` profile with its paths pointed at files that exist here (embedded base, random LoRAs)."""
    text = (PROFILES / "tall.toml").read_text(encoding="utf-8")
    text = text.replace("~/models/Qwen3.6-35B-A3B-Q4_K_M.gguf", str(base_model_path))
    for name, lora in (("L0-chat", "a"), ("L1-agent", "b"), ("L2-code", "a"), ("L3-ui", "b")):
        text = text.replace(f"~/models/tall-adapters/{name}-r64.gguf", str(lora_dir / f"{lora}.gguf"))
    path = tmp_path / "tall.toml"
    path.write_text(text, encoding="utf-8")
    return path
