"""`mol models scan`: Ollama's store (manifests -> blobs), LM Studio, the Hugging Face cache, any folder.

Stores are laid out in tmp_path exactly as each tool writes them, with tiny real GGUFs inside;
the scan records paths and fingerprints, never copies, and reports each broken thing in one line.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from mol_local.catalog.sources import scan_known, scan_path
from mol_local.catalog.store import Catalog
from tests.mol_local.adapters.tiny_gguf import write_tiny_lora
from tests.mol_local.catalog.ggufs import tiny, truncated


def ollama_store(root: Path, models: dict[str, Path | None]) -> Path:
    """{"qwen2.5:0.5b": gguf or None (manifest pointing at a blob that is not there)} in Ollama's layout."""
    import hashlib

    for name, gguf in models.items():
        model, tag = name.split(":")
        digest = hashlib.sha256(gguf.read_bytes() if gguf else name.encode()).hexdigest()
        if gguf is not None:
            (root / "blobs").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(gguf, root / "blobs" / f"sha256-{digest}")
        manifest = root / "manifests" / "registry.ollama.ai" / "library" / model / tag
        manifest.parent.mkdir(parents=True, exist_ok=True)
        layers = [{"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "0" * 64, "size": 10},
                  {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}", "size": 1}]
        manifest.write_text(json.dumps({"schemaVersion": 2, "layers": layers}))
    (root / "blobs").mkdir(parents=True, exist_ok=True)
    return root


def test_ollama_manifests_lead_to_blobs_and_a_missing_blob_is_one_line(tmp_path: Path, mol_home: Path) -> None:
    src = tiny(tmp_path / "src.gguf", name="Qwen Tiny")
    root = ollama_store(tmp_path / "ollama", {"qwen2.5:0.5b": src, "llama3.2:1b": None})
    result = Catalog(mol_home).add_found(scan_path(root))
    assert [e.name for e in result.added] == ["qwen2.5:0.5b"]
    assert result.added[0].path.startswith(str(root / "blobs" / "sha256-")) and result.added[0].source == "ollama"
    assert result.problems == [
        f"Ollama model llama3.2:1b: its manifest points at blob sha256-{__import__('hashlib').sha256(b'llama3.2:1b').hexdigest()},"
        " which is missing — run `ollama pull llama3.2:1b` again"
    ]


def test_known_stores_under_home_and_env(tmp_path: Path, mol_home: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    lm = home / ".lmstudio" / "models" / "bartowski" / "Tiny-GGUF"
    lm.mkdir(parents=True)
    tiny(lm / "tiny-lm-Q8_0.gguf")
    hub = tmp_path / "hub"
    snap = hub / "models--org--Tiny-GGUF" / "snapshots" / "abc123"
    blobs = hub / "models--org--Tiny-GGUF" / "blobs"
    blobs.mkdir(parents=True)
    snap.mkdir(parents=True)
    tiny(blobs / "deadbeef", name="From The Hub")
    (snap / "tiny-hub.Q4_K_M.gguf").symlink_to(blobs / "deadbeef")
    ollama = ollama_store(tmp_path / "elsewhere" / "ollama-models", {"phi3:mini": tiny(tmp_path / "p.gguf")})
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("OLLAMA_MODELS", str(ollama))
    result = Catalog(mol_home).add_found(scan_known())
    assert sorted((e.source, e.name) for e in result.added) == [
        ("hf-cache", "tiny-hub.q4_k_m"), ("lmstudio", "tiny-lm-q8_0"), ("ollama", "phi3:mini")]
    hub_entry = next(e for e in result.added if e.source == "hf-cache")
    assert hub_entry.path == str(blobs / "deadbeef") and hub_entry.facts.title == "From The Hub"  # the blob, not a copy
    assert not result.problems
    again = Catalog(mol_home).add_found(scan_known())
    assert not again.added and len(again.known) == 3


def test_folder_scan_skips_what_is_not_a_base_and_reports_damage(tmp_path: Path, mol_home: Path) -> None:
    folder = tmp_path / "Downloads"
    (folder / "sub").mkdir(parents=True)
    (folder / ".hidden").mkdir()
    for i in range(3):
        tiny(folder / f"model-{i}.gguf")
    tiny(folder / "sub" / "big-00001-of-00002.gguf")
    tiny(folder / "sub" / "big-00002-of-00002.gguf")  # the second part of a split model: llama.cpp opens the first
    tiny(folder / ".hidden" / "secret.gguf")
    write_tiny_lora(folder / "my-lora.gguf")
    truncated(folder / "cut.gguf")
    (folder / "readme.txt").write_text("not a model")
    result = Catalog(mol_home).add_found(scan_path(folder))
    assert sorted(e.name for e in result.added) == ["big", "model-0", "model-1", "model-2"]
    assert result.skipped == [f"{folder / 'my-lora.gguf'} (a LoRA adapter)"]
    assert len(result.problems) == 1 and "cut.gguf is damaged or unsafe" in result.problems[0] and "re-download" in result.problems[0]


def test_a_read_only_folder_is_scanned_and_left_as_it_was(tmp_path: Path, mol_home: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    for i in range(2):
        tiny(folder / f"m{i}.gguf").chmod(0o444)
    folder.chmod(0o555)
    before = {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}
    try:
        result = Catalog(mol_home).add_found(scan_path(folder))
        after = {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}
    finally:
        folder.chmod(0o755)
    assert len(result.added) == 2 and not result.problems
    assert after == before  # nothing written next to the user's files


def test_twenty_files_by_header_only(tmp_path: Path, mol_home: Path) -> None:
    """20 GGUFs, each with 1 GiB of hole after its data: all recorded at full size with one fingerprint (the header, never the data)."""
    folder = tmp_path / "twenty"
    folder.mkdir()
    src = tiny(tmp_path / "t.gguf")
    for i in range(20):
        shutil.copyfile(src, folder / f"m{i:02d}.gguf")
        os.truncate(folder / f"m{i:02d}.gguf", src.stat().st_size + (1 << 30))  # + 1 GiB of hole after the data
    result = Catalog(mol_home).add_found(scan_path(folder))
    assert len(result.added) == 20
    assert {e.facts.fingerprint for e in result.added} == {result.added[0].facts.fingerprint}
    assert all(e.size == src.stat().st_size + (1 << 30) for e in result.added)
