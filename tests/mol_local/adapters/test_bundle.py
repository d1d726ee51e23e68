"""Bundles: export/import round trip, and every bad bundle refused with the registry untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mol_local.adapters.bundle import export_bundle, import_bundle
from mol_local.adapters.errors import BundleError, ChecksumMismatch, PickleRefused, ShapeMismatch
from mol_local.errors import AdapterMismatch
from tests.mol_local.adapters.conftest import bundle_members, snapshot, write_tar


@pytest.fixture
def bundle(registry, registered, tmp_path: Path) -> Path:
    return export_bundle(registry, "L1", tmp_path / "l1", revision="r0001")


def test_round_trip_registers_without_activating(registry, bundle: Path, base_model_path: Path) -> None:
    assert bundle.suffix == ".moladapter"
    assert set(bundle_members(bundle)) == {"manifest.json", "adapter.gguf", "peft/adapter_config.json", "peft/adapter_model.safetensors"}
    rev = import_bundle(registry, bundle, base=base_model_path)
    assert rev.revision == "r0002" and registry.active("L1", "specialist") is None
    assert rev.manifest["origin"]["revision"] == "r0001" and rev.manifest["eval"] == {"acc": 0.5}
    assert (rev.path / "adapter.gguf").read_bytes() == (registry.revision("L1", "specialist", "r0001").gguf).read_bytes()
    third = import_bundle(registry, bundle, base=base_model_path, activate=True)
    assert registry.active("L1", "specialist").revision == third.revision == "r0003"


def test_cli_export_import(bundle: Path, registry, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mol_local.cli import cli, import_commands

    import_commands()
    runner = CliRunner()
    result = runner.invoke(cli, ["adapters", "import", str(bundle), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"slot": "L1", "layer": "specialist", "revision": "r0002", "active": False}
    listed = json.loads(runner.invoke(cli, ["adapters", "list", "--json"]).output)
    l1 = {r["revision"] for r in listed["revisions"] if r["slot"] == "L1"}
    assert {"r0001", "r0002"} <= l1 and len(l1) == 3  # and the shipped L1 specialist, seeded when first listed
    assert listed["storage"]["adapter_bytes"] > 0
    result = runner.invoke(cli, ["adapters", "import", str(tmp_path / "missing.moladapter")])
    assert result.exit_code == 1 and result.output.startswith("Error: bundle not found")


def _rewrite(bundle: Path, out: Path, *, drop: str | None = None, change: dict[str, bytes] | None = None, add=()) -> Path:
    members = bundle_members(bundle)
    members.update(change or {})
    rows = [(name, data, "file") for name, data in members.items() if name != drop]
    return write_tar(out, [*rows, *add])


def _manifest(bundle: Path) -> dict:
    return json.loads(bundle_members(bundle)["manifest.json"])


def _bad_cases(bundle: Path, tmp: Path) -> dict[str, tuple[Path, type]]:
    data = bundle.read_bytes()
    truncated = tmp / "truncated.moladapter"
    truncated.write_bytes(data[: len(data) // 2])
    lying = dict(_manifest(bundle))
    gguf = bytearray(bundle_members(bundle)["adapter.gguf"])
    gguf[-10] ^= 0xFF
    wrong_base = _manifest(bundle) | {"base_fingerprint": "0" * 64}
    wrong_rank = _manifest(bundle) | {"rank": 16}
    return {
        "truncated": (truncated, BundleError),
        "dotdot": (_rewrite(bundle, tmp / "dotdot.moladapter", add=[("../evil.txt", b"x", "file")]), BundleError),
        "absolute": (_rewrite(bundle, tmp / "abs.moladapter", add=[("/etc/evil", b"x", "file")]), BundleError),
        "symlink": (_rewrite(bundle, tmp / "link.moladapter", drop="adapter.gguf", add=[("adapter.gguf", b"/etc/passwd", "symlink")]), BundleError),
        "hardlink": (_rewrite(bundle, tmp / "hard.moladapter", add=[("peft/x", b"manifest.json", "hardlink")]), BundleError),
        "pickle": (_rewrite(bundle, tmp / "pickle.moladapter", add=[("peft/adapter_model.bin", b"\x80\x04K\x01.", "file")]), PickleRefused),
        "lying_checksum": (_rewrite(bundle, tmp / "lie.moladapter", change={"adapter.gguf": bytes(gguf), "manifest.json": json.dumps(lying).encode()}), ChecksumMismatch),
        "wrong_base": (_rewrite(bundle, tmp / "base.moladapter", change={"manifest.json": json.dumps(wrong_base).encode()}), AdapterMismatch),
        "rank_mismatch": (_rewrite(bundle, tmp / "rank.moladapter", change={"manifest.json": json.dumps(wrong_rank).encode()}), ShapeMismatch),
        "no_manifest": (_rewrite(bundle, tmp / "nomani.moladapter", drop="manifest.json"), BundleError),
        "not_a_tar": (tmp / "junk.moladapter", BundleError),
    }


@pytest.mark.parametrize(
    "case",
    ["truncated", "dotdot", "absolute", "symlink", "hardlink", "pickle", "lying_checksum", "wrong_base", "rank_mismatch", "no_manifest", "not_a_tar"],
)
def test_bad_bundle_is_refused_and_registry_untouched(case: str, registry, bundle: Path, base_model_path: Path, tmp_path: Path) -> None:
    (tmp_path / "junk.moladapter").write_bytes(b"this is not a tar archive at all" * 40)
    registry.activate("L1", "specialist", "r0001")
    path, expected = _bad_cases(bundle, tmp_path)[case]
    before = snapshot(registry.root)
    with pytest.raises(expected):
        import_bundle(registry, path, base=base_model_path, activate=True)
    assert snapshot(registry.root) == before
    assert not (tmp_path.parent / "evil.txt").exists()
