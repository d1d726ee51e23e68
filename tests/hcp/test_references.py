"""Files an HCP names: checked when used and by `mol hcp validate`, never at load."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from hcp import load_hcp, load_profile, parse_hcp
from hcp.errors import HCPFileError
from hcp.references import check_files, require


def test_shipped_local_profiles_have_no_file_problems() -> None:
    assert check_files(load_profile("local-default")) == []
    assert check_files(load_profile("venti-remote")) == []  # remote: no local model files to check


def test_tall_loads_but_names_each_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    hcp = load_profile("tall")
    problems = check_files(hcp)
    keys = [p.key for p in problems]
    assert keys == [
        "runtime.base_model",
        "routing.adapters[0].path",
        "slots.L0.adapters[0].path",
        "slots.L1.adapters[0].path",
        "slots.L2.adapters[0].path",
        "slots.L3.adapters[0].path",
    ]
    assert str(tmp_path / "models" / "Qwen3.6-35B-A3B-Q4_K_M.gguf") in problems[0].message
    assert "mol hcp set runtime.base_model" in problems[0].message
    with pytest.raises(HCPFileError, match=r"does not exist .*\(and 5 more: `mol hcp validate` lists them\)"):
        require(problems)


def test_tall_with_its_files_present_is_clean(tall_on_disk: Path) -> None:
    hcp = load_hcp(tall_on_disk)
    assert check_files(hcp) == []
    assert hcp.persona_pack == "tall" and len(hcp.slots) == 4


def test_not_gguf_and_folder_are_reported(tmp_path: Path) -> None:
    (tmp_path / "fake.gguf").write_text("hello", encoding="utf-8")
    (tmp_path / "dir.gguf").mkdir()
    path = tmp_path / "h.toml"
    path.write_text(
        "[runtime]\nbase_model = 'fake.gguf'\n[slots.L0]\nadapters = [{path = 'dir.gguf'}]\n", encoding="utf-8"
    )
    messages = [p.message for p in check_files(load_hcp(path))]
    assert "is not a GGUF file" in messages[0]
    assert "is a folder" in messages[1]


def test_persona_missing_from_pack(tmp_path: Path) -> None:
    hcp = parse_hcp("[slots.L0]\npersona = 'L7'\n")
    (problem,) = check_files(hcp)
    assert problem.key == "slots.L0.persona"
    assert "no L7.md in pack local-default — use one of L0, L1, L2, L3" in problem.message


def test_pack_folder_relative_to_hcp_file(tmp_path: Path) -> None:
    pack = tmp_path / "mypack"
    pack.mkdir()
    for name in ("intro", "route", "summary", "L0"):
        (pack / f"{name}.md").write_text(name, encoding="utf-8")
    path = tmp_path / "h.toml"
    path.write_text("persona_pack = './mypack'\n[slots.L0]\n[slots.L1]\n", encoding="utf-8")
    (problem,) = check_files(load_hcp(path))
    assert problem.key == "slots.L1.persona"
    (pack / "L1.md").write_text("L1", encoding="utf-8")
    assert check_files(load_hcp(path)) == []
    (pack / "route.md").unlink()
    assert "lacks route.md" in check_files(load_hcp(path))[0].message


def test_skill_source_must_match_its_hash(tmp_path: Path) -> None:
    source = tmp_path / "weekday_of.py"
    source.write_text("def weekday_of(d): return d.weekday()\n", encoding="utf-8")
    sha = hashlib.sha256(source.read_bytes()).hexdigest()
    path = tmp_path / "h.toml"
    path.write_text(f"[skills.weekday_of]\nsha256 = '{sha}'\npath = 'weekday_of.py'\n[slots.L0]\n", encoding="utf-8")
    assert check_files(load_hcp(path)) == []
    source.write_text("import os\n", encoding="utf-8")
    (problem,) = check_files(load_hcp(path))
    assert "changed since it was promoted" in problem.message and "mol tools promote weekday_of" in problem.message
    source.unlink()
    assert "does not exist" in check_files(load_hcp(path))[0].message


def test_runtime_refuses_a_missing_persona(mol_home: Path) -> None:
    from mol_local.runtime import Runtime

    with pytest.raises(HCPFileError, match="slots.L0.persona"):
        Runtime(parse_hcp("[slots.L0]\npersona = 'nobody'\n"))


@pytest.mark.slow
def test_runtime_resolves_home_relative_adapters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mol_local.runtime import Runtime

    monkeypatch.setenv("HOME", str(tmp_path))
    hcp = parse_hcp("[slots.L0]\nadapters = [{path = '~/a.gguf', scale = 0.5}]\n")
    rt = Runtime(hcp)
    try:
        assert rt.slot_stack("L0")[-1].path == str(tmp_path / "a.gguf")  # the HCP's adapters stack on the shipped specialist
    finally:
        rt.db.close()


@pytest.mark.slow
def test_tall_profile_routes_with_its_pack_and_stacks(tall_on_disk: Path, engine, mol_home: Path) -> None:
    """The tall profile's pack and L0 stack drive a real route decision (embedded base standing in for Qwen)."""
    from mol_local.runtime import Runtime

    rt = Runtime(load_hcp(tall_on_disk), engine=engine)
    try:
        assert rt.pack.name == "tall" and "workstation" in rt.head("L0")
        declared = [Path(spec.path).name for label in rt.hcp.slots for spec in rt.slot_stack(label)
                    if not spec.path.startswith(str(rt.adapters_root()))]  # the registry's specialists come first
        assert declared == ["a.gguf", "b.gguf", "a.gguf", "b.gguf"]
        decision = rt.router.route("Write a Python function that reverses a string.")
        assert decision.slot in rt.hcp.slots
    finally:
        rt.db.close()


def test_runtime_names_the_missing_tall_base_when_the_engine_is_needed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mol_local.errors import ModelNotFound
    from mol_local.runtime import Runtime

    monkeypatch.setenv("HOME", str(tmp_path))
    rt = Runtime(load_profile("tall"))  # loads: nothing is missing until the model is used
    try:
        with pytest.raises(ModelNotFound, match=r"Qwen3.6-35B-A3B-Q4_K_M.gguf — fix runtime.base_model in your HCP"):
            rt.engine
        assert not rt.engine_loaded
    finally:
        rt.db.close()
