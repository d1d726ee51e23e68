"""Hostile bundles: manifest values out of type or range, deep nesting, sparse or forged tar members.

Every case is refused with a one-line BundleError/RegistryError, the registry
is byte-identical afterwards and nothing was unpacked into the temp folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import pytest

from mol_local.adapters.bundle import export_bundle, import_bundle
from mol_local.adapters.errors import AdapterError, BundleError, RegistryError
from tests.mol_local.adapters.conftest import bundle_members, snapshot, write_tar


@pytest.fixture
def bundle(registry, registered, tmp_path: Path) -> Path:
    return export_bundle(registry, "L1", tmp_path / "l1", revision="r0001")


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder import_bundle unpacks into (tempfile's default), watched for leftovers."""
    root = tmp_path / "tmpdir"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


def _with_manifest(bundle: Path, out: Path, text: str) -> Path:
    members = bundle_members(bundle)
    members["manifest.json"] = text.encode("utf-8")
    return write_tar(out, [(name, data, "file") for name, data in members.items()])


def _refused(registry, path: Path, base: Path, temp_root: Path, expected: type = AdapterError) -> str:
    before = snapshot(registry.root)
    with pytest.raises(expected) as err:
        import_bundle(registry, path, base=base, activate=True)
    assert snapshot(registry.root) == before
    assert list(temp_root.iterdir()) == []  # the private unpack folder is gone, and held nothing big meanwhile
    assert "\n" not in str(err.value)
    return str(err.value)


@pytest.mark.parametrize("scale", ['"abc"', "NaN", "Infinity", "1e30", "-5", "true", "null"])
def test_a_scale_that_is_not_a_sane_number_is_refused(scale: str, registry, bundle: Path, base_model_path: Path, tmp_path: Path, temp_root: Path) -> None:
    text = json.dumps(json.loads(bundle_members(bundle)["manifest.json"]) | {"scale": "__S__"}).replace('"__S__"', scale)
    message = _refused(registry, _with_manifest(bundle, tmp_path / "s.moladapter", text), base_model_path, temp_root, RegistryError)
    assert "scale" in message or "not a number JSON allows" in message


def test_a_scale_in_range_imports(registry, bundle: Path, base_model_path: Path, tmp_path: Path) -> None:
    text = json.dumps(json.loads(bundle_members(bundle)["manifest.json"]) | {"scale": 0.5})
    rev = import_bundle(registry, _with_manifest(bundle, tmp_path / "ok.moladapter", text), base=base_model_path)
    assert rev.manifest["scale"] == 0.5 and rev.spec().scale == 0.5


@pytest.mark.parametrize("field,value", [("rank", 0), ("training_data_ids", ["not-hashed"]), ("files", {"../x": "0" * 64}), ("eval", [1])])
def test_other_fields_out_of_type_are_refused(field: str, value, registry, bundle: Path, base_model_path: Path, tmp_path: Path, temp_root: Path) -> None:
    text = json.dumps(json.loads(bundle_members(bundle)["manifest.json"]) | {field: value})
    assert field in _refused(registry, _with_manifest(bundle, tmp_path / "f.moladapter", text), base_model_path, temp_root, RegistryError)


def test_a_deeply_nested_manifest_is_refused_without_recursion_error(registry, bundle: Path, base_model_path: Path, tmp_path: Path, temp_root: Path) -> None:
    manifest = json.loads(bundle_members(bundle)["manifest.json"])
    text = json.dumps(manifest)[:-1] + ', "eval": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert "nests deeper" in _refused(registry, _with_manifest(bundle, tmp_path / "deep.moladapter", text), base_model_path, temp_root, RegistryError)
    nine = json.dumps(manifest | {"eval": json.loads("[" * 9 + "]" * 9)})
    assert "nests deeper" in _refused(registry, _with_manifest(bundle, tmp_path / "nine.moladapter", nine), base_model_path, temp_root, RegistryError)


@pytest.mark.parametrize("fmt", ["gnu", "pax"])
def test_a_sparse_member_is_refused_before_anything_is_written(fmt: str, registry, bundle: Path, base_model_path: Path, tmp_path: Path, temp_root: Path) -> None:
    """A few KB of tar that would unpack to 256 MiB (the red team's 650 KB tar wrote 1,025 MB to /tmp)."""
    if shutil.which("tar") is None:
        pytest.skip("GNU tar is needed to write a sparse archive")
    src = tmp_path / "src"
    src.mkdir()
    (src / "manifest.json").write_bytes(bundle_members(bundle)["manifest.json"])
    with (src / "adapter.gguf").open("wb") as fh:
        fh.truncate(256 << 20)
    out = tmp_path / f"sparse-{fmt}.moladapter"
    subprocess.run(["tar", "--sparse", f"--format={fmt}", "-cf", str(out), "-C", str(src), "manifest.json", "adapter.gguf"], check=True)
    assert out.stat().st_size < 64 << 10
    assert "sparse" in _refused(registry, out, base_model_path, temp_root, BundleError)


def _header(name: str, size: int, kind: bytes = b"0") -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.type = size, kind
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def test_forged_sizes_and_headers_are_refused(registry, base_model_path: Path, tmp_path: Path, temp_root: Path) -> None:
    forged = tmp_path / "forged.moladapter"
    forged.write_bytes(_header("adapter.gguf", 1 << 30) + b"\0" * 4096)  # declares 1 GiB, holds 4 KB
    assert "truncated" in _refused(registry, forged, base_model_path, temp_root, BundleError)
    pax = tmp_path / "pax.moladapter"
    pax.write_bytes(_header("././@PaxHeader", 100 << 20, b"x") + b"\0" * 1024)  # a 100 MB pax header would be read into memory
    assert "meta header" in _refused(registry, pax, base_model_path, temp_root, BundleError)
    many = write_tar(tmp_path / "many.moladapter", [(f"peft/f{i}", b"x", "file") for i in range(17)])
    assert "entries" in _refused(registry, many, base_model_path, temp_root, BundleError)
    fifo = tmp_path / "fifo.moladapter"
    fifo.write_bytes(_header("adapter.gguf", 0, b"6") + b"\0" * 1024)
    assert "a fifo" in _refused(registry, fifo, base_model_path, temp_root, BundleError)
