"""Hostile paths for and inside an HCP: FIFOs, devices, folders, oversized files, traversal.

A FIFO or /dev/zero is tried through a real `mol` subprocess with a timeout,
so a regression fails the test instead of hanging or exhausting the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hcp.errors import HCPError, HCPFileError, HCPValidationError
from hcp.loader import load_hcp, parse_hcp, profile_path
from hcp.store import VersionStore

MOL = [sys.executable, "-m", "mol_local.cli"]


def _mol(args: list[str], home: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    env.pop("MOL_HCP", None)
    return subprocess.run(MOL + args, capture_output=True, text=True, env=env, timeout=timeout)


def _one_line_error(out: subprocess.CompletedProcess, words: str) -> None:
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and words in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    return path


def test_hcp_flag_on_a_fifo_a_device_or_a_folder_is_refused_at_once(fifo: Path, tmp_path: Path, mol_home: Path) -> None:
    _one_line_error(_mol(["--hcp", str(fifo), "hcp", "show"], mol_home, timeout=30), "is a FIFO (named pipe), not an HCP file")
    _one_line_error(_mol(["--hcp", "/dev/zero", "hcp", "show"], mol_home, timeout=30), "/dev/zero is a device, not an HCP file")
    _one_line_error(_mol(["hcp", "validate", str(tmp_path)], mol_home), "is a folder, not an HCP file")


def test_an_hcp_over_one_megabyte_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as fh:
        fh.truncate(50 << 20)  # 50 MB (sparse): the red team's took 169 s to validate
    with pytest.raises(HCPError, match="52,428,800 bytes; an HCP file may be at most 1,048,576"):
        load_hcp(big)
    with pytest.raises(HCPError, match="over 1,048,576 bytes"):
        parse_hcp("# " + "x" * (1 << 20))
    store = VersionStore(tmp_path / "home")
    with pytest.raises(HCPValidationError, match="over 1,048,576 — keep values short"):
        store.set("name", "x" * (1 << 20), reason="too long")
    assert store.versions() == []  # nothing saved, the next load still works


def _versions(home: Path) -> list[dict]:
    index = home / "hcp" / "index.json"
    return json.loads(index.read_text(encoding="utf-8")) if index.is_file() else []


@pytest.mark.parametrize("value,words", [
    ("/dev/zero", "/dev/zero is a device, not a .gguf base model"),
    ("FIFO", "is a FIFO (named pipe), not a .gguf base model"),
    ("../../etc/shadow", "climbs out of the HCP's folder"),
    ("builtin:../../x", "is not a built-in name"),
    ("FOLDER", "is a folder"),
    ("NOT_GGUF", "is not a GGUF file"),
    ("LINK_TO_DEVICE", "(-> /dev/zero) is a device"),
])
def test_hcp_set_refuses_what_load_would_refuse_and_saves_nothing(value: str, words: str, fifo: Path, tmp_path: Path, mol_home: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a model\n", encoding="utf-8")
    (tmp_path / "zero.gguf").symlink_to("/dev/zero")
    value = {"FIFO": str(fifo), "FOLDER": str(tmp_path), "NOT_GGUF": str(tmp_path / "notes.txt"),
             "LINK_TO_DEVICE": str(tmp_path / "zero.gguf")}.get(value, value)
    assert _mol(["hcp", "init"], mol_home).returncode == 0
    before = _versions(mol_home)
    active = (mol_home / "hcp.toml").read_bytes()
    out = _mol(["hcp", "set", "runtime.base_model", value, "--reason", "probe"], mol_home, timeout=30)
    _one_line_error(out, words)
    assert "nothing was saved" in out.stderr
    assert _versions(mol_home) == before and (mol_home / "hcp.toml").read_bytes() == active


def test_adapter_paths_get_the_same_checks(fifo: Path, mol_home: Path, lora_dir: Path) -> None:
    store = VersionStore(mol_home)
    with pytest.raises(HCPFileError, match="FIFO"):
        store.set("slots.L1.adapters", f'[{{path = "{fifo}", scale = 1.0}}]', reason="probe")
    with pytest.raises(HCPValidationError, match="climbs out"):
        store.set("slots.L1.adapters", '[{path = "../x.gguf", scale = 1.0}]', reason="probe")
    ok = store.set("slots.L1.adapters", f'[{{path = "{lora_dir / "a.gguf"}", scale = 0.5}}]', reason="a real LoRA")
    assert ok.n == 2 and store.load().slots["L1"].adapters[0].scale == 0.5


def test_a_missing_file_is_allowed_and_listed_to_do(mol_home: Path, tmp_path: Path) -> None:
    """As at load (profiles name files not downloaded yet): saved, and `hcp set` says what is left to do."""
    out = _mol(["hcp", "set", "runtime.base_model", str(tmp_path / "later.gguf"), "--reason", "download tonight"], mol_home)
    assert out.returncode == 0 and "to do: runtime.base_model: base model" in out.stdout and "does not exist" in out.stdout


def test_the_document_checks_apply_on_load_too(tmp_path: Path) -> None:
    text = profile_path("local-default").read_text(encoding="utf-8")
    for bad, words in (("builtin:../../x", "is not a built-in name"), ("../../etc/shadow", "climbs out")):
        path = tmp_path / "h.toml"
        path.write_text(text.replace('base_model = "builtin:smollm2-135m"', f'base_model = "{bad}"'), encoding="utf-8")
        with pytest.raises(HCPValidationError, match=words):
            load_hcp(path)


def test_an_empty_key_and_deep_nesting_are_one_line_errors(mol_home: Path, tmp_path: Path) -> None:
    _one_line_error(_mol(["hcp", "set", "", "1", "--reason", "x"], mol_home), "the key is empty")
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 3000 + "1" + "]" * 3000 + "\n", encoding="utf-8")
    _one_line_error(_mol(["hcp", "validate", str(deep)], mol_home), "not valid TOML")
