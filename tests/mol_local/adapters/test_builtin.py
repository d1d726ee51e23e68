"""The shipped route adapter is seeded once per version; an upgrade replaces a shipped active, not a user's choice."""

from __future__ import annotations

import shutil
from pathlib import Path

from mol_local.adapters.builtin import ROUTE_ADAPTER, ensure_seeded, write_shipped_manifest
from mol_local.adapters.manifest import read_manifest
from mol_local.adapters.synthetic import write_random_lora


def _version(tmp_path: Path, name: str, base_info, base: Path, seed: int) -> Path:
    """A copy of the shipped folder with another adapter.gguf, described like a new release."""
    folder = tmp_path / name
    shutil.copytree(ROUTE_ADAPTER, folder)
    write_random_lora(base_info, folder / "adapter.gguf", targets=("attn_q", "attn_v", "attn_output"), seed=seed, std=0.01)
    m = read_manifest(ROUTE_ADAPTER)
    write_shipped_manifest(folder, base, name=m["name"], slot=m["slot"], layer=m["layer"], hops=m["hops"], evidence={}, training_ids=[], recipe={})
    return folder


def test_seeded_once_per_version_and_an_upgrade_replaces_a_shipped_active(registry, base_model_path: Path, base_info, tmp_path: Path) -> None:
    first = ensure_seeded(registry, base_model_path)
    assert first is not None and registry.active("L0", "router").revision == first.revision
    assert ensure_seeded(registry, base_model_path) is None  # the same version is not registered twice
    second = ensure_seeded(registry, base_model_path, _version(tmp_path, "v2", base_info, base_model_path, seed=2))
    assert second is not None and registry.active("L0", "router").revision == second.revision != first.revision


def test_an_upgrade_leaves_a_users_own_activation_alone(registry, registered, base_model_path: Path, base_info, tmp_path: Path) -> None:
    ensure_seeded(registry, base_model_path)
    mine = registry.register("L0", "router", registered.path / "adapter.gguf", base=base_model_path, peft_dir=registered.path / "peft",
                             training_ids=[], evidence={}, activate=True)
    new = ensure_seeded(registry, base_model_path, _version(tmp_path, "v2", base_info, base_model_path, seed=3))
    assert new is not None and registry.active("L0", "router").revision == mine.revision != new.revision


def test_a_damaged_or_missing_shipped_specialist_leaves_its_slot_bare_with_one_line(registry, base_model_path: Path, tmp_path: Path) -> None:
    from mol_local.adapters.builtin import seed_shipped

    damaged = tmp_path / "smollm2-l1"
    shutil.copytree(ROUTE_ADAPTER, damaged)
    manifest = read_manifest(damaged)
    manifest["slot"] = "L1"
    manifest["hops"] = ["answer"]
    (damaged / "manifest.json").write_text(__import__("json").dumps(manifest), encoding="utf-8")
    with (damaged / "adapter.gguf").open("r+b") as fh:  # a flipped byte: the checksum no longer matches
        fh.seek(4096)
        byte = fh.read(1)
        fh.seek(4096)
        fh.write(bytes([byte[0] ^ 0xFF]))
    problems = seed_shipped(registry, base_model_path, (ROUTE_ADAPTER, damaged, tmp_path / "smollm2-l2"))
    assert len(problems) == 2
    assert "smollm2-l1 could not be used" in problems[0] and "damaged" in problems[0] and "reinstall mol-local" in problems[0]
    assert "smollm2-l2 is missing" in problems[1]
    assert registry.active("L1", "specialist") is None and registry.revisions("L1", "specialist") == []
    assert registry.active("L0", "router") is not None  # the intact one is seeded all the same


def test_a_shipped_adapter_for_another_base_is_neither_seeded_nor_applied(registry, base_model_path: Path, tmp_path: Path) -> None:
    from mol_local.adapters.manifest import base_fingerprint

    foreign = tmp_path / "foreign"
    shutil.copytree(ROUTE_ADAPTER, foreign)
    manifest = read_manifest(foreign)
    manifest["base_fingerprint"] = "0" * 64
    (foreign / "manifest.json").write_text(__import__("json").dumps(manifest), encoding="utf-8")
    assert ensure_seeded(registry, base_model_path, foreign) is None  # adapters belong to a base
    rows = registry.verify(base=base_model_path)
    assert all(r["ok"] for r in rows)
    assert registry.stack("L0", hop="route", fingerprint=base_fingerprint(base_model_path)) == ()


def test_mol_route_says_which_shipped_adapter_it_runs_without(mol_home: Path, monkeypatch, tmp_path: Path) -> None:
    """A damaged shipped route adapter left `mol route` routing zero-shot (tick-offs to L3) without a word."""
    from click.testing import CliRunner

    from mol_local.adapters import builtin
    from mol_local.cli import cli, import_commands

    monkeypatch.setattr(builtin, "SPECIALISTS", (*builtin.SPECIALISTS, tmp_path / "smollm2-l9"))
    import_commands()
    result = CliRunner().invoke(cli, ["route", "hello there"], catch_exceptions=False)
    assert result.exit_code == 0 and result.stdout.startswith("L")
    assert result.stderr.splitlines() == ["warning: the shipped adapter smollm2-l9 is missing — its slot runs without it; reinstall mol-local"]
