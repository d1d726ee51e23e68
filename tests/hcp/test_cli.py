"""`mol hcp ...`: each subcommand, its --json, and one-line errors with a non-zero exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hcp.docs import SCHEMA_MD


def test_show_falls_back_to_the_shipped_profile(mol) -> None:
    result = mol("hcp", "show")
    assert result.exit_code == 0
    assert "shipped profile" in result.output and "[runtime]" in result.output
    data = json.loads(mol("hcp", "show", "--json").output)
    assert data["version"] is None and data["hcp"]["tools"]["defaults"]["memory_mb"] == 512


def test_init_set_history_diff_rollback(mol, mol_home: Path) -> None:
    assert mol("hcp", "init").exit_code == 0
    result = mol("hcp", "set", "runtime.gpu_layers", "-1", "--reason", "use the GPU")
    assert result.exit_code == 0 and "version 2" in result.output
    data = json.loads(mol("hcp", "set", "memory.top_k", "6", "--reason", "recall more", "--json").output)
    assert data["version"]["n"] == 3 and data["version"]["parent"] == 2
    history = mol("hcp", "history").output.splitlines()
    assert history[0].startswith("*   3") and "recall more" in history[0] and "import" in history[2]
    changes = json.loads(mol("hcp", "diff", "1", "3", "--json").output)["changes"]
    assert {c["key"] for c in changes} == {"runtime.gpu_layers", "memory.top_k"}
    assert "+top_k = 6" in mol("hcp", "diff", "2", "3").output
    back = json.loads(mol("hcp", "rollback", "1", "--json").output)["version"]
    assert back["rollback_of"] == 1 and back["n"] == 4
    assert json.loads(mol("hcp", "show", "--json").output)["hcp"]["memory"]["top_k"] == 4
    assert json.loads(mol("hcp", "history", "--json").output)["head"] == 4


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("hcp", "set", "runtime.thread", "2", "--reason", "x"), "did you mean 'runtime.threads'"),
        (("hcp", "set", "runtime.threads", "lots", "--reason", "x"), "must be an int"),
        (("hcp", "set", "remote.api_key", "sk-1", "--reason", "x"), "mol remote login"),
        (("hcp", "rollback", "9"), "version 9 does not exist"),
        (("hcp", "diff", "1", "2"), "version 1 does not exist"),
        (("hcp", "init", "--profile", "grande"), "Unknown profile 'grande'"),
        (("hcp", "validate", "nope.toml"), "HCP file not found"),
    ],
)
def test_errors_are_one_line(mol, args: tuple[str, ...], match: str) -> None:
    result = mol(*args)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and match in lines[0]


def test_set_refuses_while_mol_hcp_points_elsewhere(mol, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other.toml"
    other.write_text("[slots.L0]\n", encoding="utf-8")
    result = mol("--hcp", str(other), "hcp", "set", "runtime.threads", "3", "--reason", "x")
    assert result.exit_code == 1 and "unset MOL_HCP" in result.output


def test_validate_lists_every_missing_file_of_tall(mol, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = mol("hcp", "validate", "tall")
    assert result.exit_code == 1
    assert result.output.count("problem: ") == 6 and "Qwen3.6-35B-A3B-Q4_K_M.gguf does not exist" in result.output
    data = json.loads(mol("hcp", "validate", "tall", "--json").output)
    assert data["ok"] is False and data["problems"][0]["key"] == "runtime.base_model"


def test_validate_ok_and_structural_errors_as_json(mol, tall_on_disk: Path, tmp_path: Path) -> None:
    assert mol("hcp", "validate", str(tall_on_disk)).output.startswith("OK: ")
    broken = tmp_path / "broken.toml"
    broken.write_text("[runtime]\nbackend = 'vllm'\n[slots.L0]\n", encoding="utf-8")
    result = mol("hcp", "validate", str(broken), "--json")
    data = json.loads(result.output)
    assert result.exit_code == 1 and "must be one of llama-cpp, remote" in data["problems"][0]["message"]


def test_init_tall_lists_what_to_do(mol, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    result = mol("hcp", "init", "--profile", "tall")
    assert result.exit_code == 0 and result.output.count("to do: ") == 6
    assert mol("hcp", "init").exit_code == 1  # exists: use --force
    assert mol("hcp", "init", "--force").exit_code == 0


def test_schema_command_matches_schema_md(mol) -> None:
    assert mol("hcp", "schema").output == SCHEMA_MD.read_text(encoding="utf-8")
    data = json.loads(mol("hcp", "schema", "--json").output)
    assert data["sections"]["trainer.gate"]["keys"]["new_data_gain_min_rel"]["default"] == 0.02


def test_real_entry_point_prints_no_traceback(mol_home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[runtime]\nthreads = 2\n[runtime]\n", encoding="utf-8")
    mol_bin = Path(sys.executable).parent / "mol"
    proc = subprocess.run(
        [str(mol_bin), "hcp", "validate", str(bad)], capture_output=True, text=True, timeout=120,
        env={**os.environ, "MOL_HOME": str(mol_home)},
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("Error: ") and "not valid TOML" in proc.stderr
