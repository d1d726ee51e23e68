"""`mol models add/info/use/remove` as a person runs them (a real `mol` child), and each bad input:
one line naming the problem and the fix, and the current model stays in use (no new HCP version)."""

from __future__ import annotations

import json
from pathlib import Path

from mol_local.catalog.choose import NO_TEMPLATE
from tests.mol_local.catalog.ggufs import HERMES_TEMPLATE, huge, tiny, truncated, unknown_architecture


def versions(mol_home: Path) -> int:
    index = mol_home / "hcp" / "index.json"
    return len(json.loads(index.read_text())) if index.is_file() else 0


def one_line_error(out, *words: str) -> None:
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stderr.startswith("Error: ") and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    for word in words:
        assert word in out.stderr, out.stderr


def test_add_info_remove_and_the_file_stays(mol, tmp_path: Path) -> None:
    path = tiny(tmp_path / "Tiny-Chat-F32.gguf", name="Tiny Chat", template=HERMES_TEMPLATE)
    out = mol("models", "add", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("added tiny-chat-f32: llama,") and not out.stderr
    info = json.loads(mol("models", "info", "tiny-chat-f32", "--json").stdout)
    assert info["facts"]["title"] == "Tiny Chat" and info["facts"]["tool_format"] == "hermes" and info["routing"] == "embed"
    assert {e["kv_layout"] for e in info["estimates"]} == {"split", "unified"} and all(e["fits"] for e in info["estimates"])
    names = [m["name"] for m in json.loads(mol("models", "list", "--json").stdout)["models"]]
    assert names == ["smollm2-135m", "tiny-chat-f32"]
    out = mol("models", "remove", "tiny-chat-f32")
    assert out.returncode == 0 and "untouched" in out.stdout and path.is_file()
    assert "tiny-chat-f32" not in mol("models", "list").stdout
    one_line_error(mol("models", "info", "tiny-chat-f32"), "no model named 'tiny-chat-f32'", "mol models add PATH")


def test_use_a_template_less_base_writes_one_version_and_warns(mol, mol_home: Path, gemma3: Path) -> None:
    out = mol("models", "use", str(gemma3), "--n-ctx", "1024", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["changes"] == {"runtime.backend": "llama-cpp", "runtime.base_model": str(gemma3), "runtime.n_ctx": 1024,
                                 "runtime.kv_layout": "split", "routing.mode": "embed"}
    assert result["notes"][0].startswith(NO_TEMPLATE)
    hcp = json.loads(mol("hcp", "show", "--json").stdout)["hcp"]
    assert (hcp["runtime"]["base_model"], hcp["runtime"]["n_ctx"], hcp["routing"]["mode"]) == (str(gemma3), 1024, "embed")
    history = json.loads(mol("hcp", "history", "--json").stdout)["versions"]
    assert history[0]["reason"] == "mol models use gemma-3-270m-q4_k_m"
    listed = {m["name"]: m for m in json.loads(mol("models", "list", "--json").stdout)["models"]}
    assert listed["gemma-3-270m-q4_k_m"]["in_use"] and not listed["smollm2-135m"]["in_use"]
    out = mol("models", "use", "smollm2-135m")  # back to the embedded base, which has its route adapter
    assert out.returncode == 0 and "routing hybrid" in out.stdout, out.stderr
    assert json.loads(mol("hcp", "show", "--json").stdout)["hcp"]["runtime"]["base_model"] == "builtin:smollm2-135m"


def test_doctor_warns_about_a_base_without_a_template(mol, gemma3: Path) -> None:
    assert mol("models", "use", str(gemma3), "--n-ctx", "1024").returncode == 0
    out = mol("doctor", "--json")
    report = json.loads(out.stdout)
    assert report["chat template"].startswith(f"WARNING: {NO_TEMPLATE}")
    assert report["gpu offload"].startswith("0 of 19 layers")  # 18 blocks + the output layer, on this CPU build


def test_not_a_gguf_and_a_truncated_file(mol, mol_home: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("my shopping list")
    one_line_error(mol("models", "add", str(notes)), "is not a GGUF file", "point to a .gguf")
    one_line_error(mol("models", "use", str(truncated(tmp_path / "cut.gguf"))), "is damaged or unsafe", "re-download")
    assert versions(mol_home) == 0 and "cut" not in mol("models", "list").stdout


def test_an_architecture_llama_cpp_cannot_load(mol, mol_home: Path, tmp_path: Path) -> None:
    path = unknown_architecture(tmp_path / "exotic.gguf")
    one_line_error(mol("models", "add", str(path)), "cannot load", "architecture 'zyxwv'", "upgrade llama-cpp-python")
    one_line_error(mol("models", "use", str(path)), "architecture 'zyxwv'", "the current model stays in use")
    assert versions(mol_home) == 0


def test_a_file_that_disappears_after_add(mol, mol_home: Path, tmp_path: Path) -> None:
    path = tiny(tmp_path / "gone.gguf", template=HERMES_TEMPLATE)
    assert mol("models", "add", str(path)).returncode == 0
    path.unlink()
    one_line_error(mol("models", "use", "gone"), f"gone was at {path} but the file is gone", "mol models remove gone")
    assert versions(mol_home) == 0
    listed = {m["name"]: m for m in json.loads(mol("models", "list", "--json").stdout)["models"]}
    assert listed["gone"]["state"] == "missing" and "FILE MISSING" in mol("models", "list").stdout


def test_a_model_too_big_for_this_machine_is_refused_with_numbers(mol, mol_home: Path, tmp_path: Path) -> None:
    path = huge(tmp_path / "giant.gguf", gib=64)  # a sparse file: 64 GiB of weights on paper, a few KB on disk
    assert mol("models", "add", str(path)).returncode == 0  # recorded (its `fits` column says no) ...
    assert json.loads(mol("models", "list", "--json").stdout)["models"][1]["fits"] == "no"
    out = mol("models", "use", "giant")  # ... but never made the base: refused before loading
    one_line_error(out, "Tiny Test needs about", "weights 64.0 GiB", "is free here", "pick a smaller quantisation")
    assert versions(mol_home) == 0


def test_use_refuses_while_another_hcp_file_is_forced(mol, tmp_path: Path) -> None:
    other = tmp_path / "mine.toml"
    other.write_text('schema = 1\nname = "mine"\n')
    out = mol("models", "use", "smollm2-135m", env={"MOL_HCP": str(other)})
    one_line_error(out, "unset MOL_HCP")


def test_hcp_listed_adapters_for_the_old_base_are_left_out_and_said(mol, mol_home: Path, tmp_path: Path, lora_dir: Path) -> None:
    from hcp.store import VersionStore

    VersionStore(mol_home).update({"slots.L1.adapters": [{"path": str(lora_dir / "a.gguf"), "scale": 1.0}]}, reason="an adapter for SmolLM2")
    out = mol("models", "use", str(tiny(tmp_path / "other.gguf", template=HERMES_TEMPLATE)), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["changes"]["slots.L1.adapters"] == []
    assert any(n.startswith(f"slots.L1.adapters: {lora_dir / 'a.gguf'} left out of this version") and "mol hcp rollback" in n
               for n in result["notes"])
