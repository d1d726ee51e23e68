"""Versions: every change is a new file with parent/reason/author; comments survive; rollback is safe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hcp.errors import HCPSecretError, HCPSyntaxError, HCPValidationError, HCPVersionError
from hcp.store import VersionStore


def files(store: VersionStore) -> dict[str, bytes]:
    """Every file under the data folder's HCP parts (to prove a refused change wrote nothing)."""
    out = {p.relative_to(store.home).as_posix(): p.read_bytes() for p in store.folder.rglob("*") if p.is_file() and p.name != ".lock"}
    if store.active.is_file():
        out["hcp.toml"] = store.active.read_bytes()
    return out


def test_set_writes_a_version_with_parent_reason_author(store: VersionStore) -> None:
    first = store.set("runtime.threads", "4", reason="use more cores")
    second = store.update({"trainer.gate.new_data_gain_min_rel": 0.05}, reason="gate tuned", author="trainer")
    assert (first.n, first.parent, first.author) == (2, 1, "user")  # 1 = the local-default it started from
    assert (second.n, second.parent, second.author, second.reason) == (3, 2, "trainer", "gate tuned")
    assert store.versions()[0].author == "import"
    assert (store.versions_dir / "0003.toml").read_text(encoding="utf-8") == store.active.read_text(encoding="utf-8")
    index = json.loads(store.index_path.read_text(encoding="utf-8"))
    assert [row["n"] for row in index] == [1, 2, 3] and index[2]["timestamp"].endswith("+00:00")
    hcp = store.load()
    assert hcp.threads == 4 and hcp.trainer.gate.new_data_gain_min_rel == 0.05


def test_comments_and_layout_survive_edits(store: VersionStore) -> None:
    store.init("local-default")
    before = store.active.read_text(encoding="utf-8")
    store.set("runtime.n_ctx", "2048", reason="smaller")
    store.set("slots.L2.adapters", '[{path = "code.gguf", scale = 0.8}]', reason="coding adapter")
    after = store.active.read_text(encoding="utf-8")
    assert "n_ctx = 2048                     # tokens one slot's view may use" in after
    assert 'adapters = [{path = "code.gguf", scale = 0.8}]' in after
    assert "# Runs fully offline on the embedded SmolLM2-135M base" in after
    changed = [line for line in after.splitlines() if line not in before.splitlines()]
    assert len(changed) == 2


def test_diff_and_changed_keys(store: VersionStore) -> None:
    store.init("local-default")
    store.set("memory.top_k", "8", reason="more recall")
    assert "-top_k = 4" in store.diff(1, 2) and "+top_k = 8" in store.diff(1, 2)
    assert store.changed_keys(1, 2) == [{"key": "memory.top_k", "a": 4, "b": 8}]


def test_rollback_is_a_new_version(store: VersionStore) -> None:
    store.init("local-default")
    store.set("runtime.threads", "3", reason="a")
    store.set("runtime.threads", "5", reason="b")
    back = store.rollback(2)
    assert (back.n, back.parent, back.rollback_of, back.reason) == (4, 3, 2, "rollback to version 2")
    assert store.load().threads == 3
    assert [v.n for v in store.lineage()] == [4, 3, 2, 1]


def test_rollback_to_a_missing_version(store: VersionStore) -> None:
    store.init("local-default")
    before = files(store)
    with pytest.raises(HCPVersionError, match=r"version 7 does not exist — pick one of 1..1"):
        store.rollback(7)
    assert files(store) == before


def test_rollback_to_what_is_active_is_refused(store: VersionStore) -> None:
    store.init("local-default")
    store.set("runtime.threads", "3", reason="a")
    store.rollback(1)
    with pytest.raises(HCPVersionError, match="is what is active now"):
        store.rollback(3)
    with pytest.raises(HCPVersionError, match="is what is active now"):
        store.rollback(1)  # same text as the head (version 3)


def test_cyclic_parent_chain_is_detected(store: VersionStore) -> None:
    store.init("local-default")
    store.set("runtime.threads", "3", reason="a")
    rows = json.loads(store.index_path.read_text(encoding="utf-8"))
    rows[0]["parent"] = 2
    store.index_path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(HCPVersionError, match="parent chain loops"):
        store.lineage()
    with pytest.raises(HCPVersionError, match="parent chain loops"):
        store.rollback(1)


def test_damaged_index_and_tampered_version(store: VersionStore) -> None:
    store.init("local-default")
    store.set("runtime.threads", "3", reason="a")
    (store.versions_dir / "0001.toml").write_text("name = 'changed'\n[slots.L0]\n", encoding="utf-8")
    with pytest.raises(HCPVersionError, match="modified after it was recorded"):
        store.rollback(1)
    store.index_path.write_text("{not json", encoding="utf-8")
    with pytest.raises(HCPVersionError, match="is damaged .* restore"):
        store.versions()


def test_refused_changes_write_nothing(store: VersionStore) -> None:
    store.init("local-default")
    before = files(store)
    cases = [
        (("runtime.threads", "0"), HCPValidationError, "between 1 and 256"),
        (("runtime.thread", "2"), HCPValidationError, "did you mean 'runtime.threads'"),
        (("runtime.kv_reuse", "maybe"), HCPValidationError, "must be true or false"),
        (("routing.entry_slot", "L9"), HCPValidationError, "must be one of L0"),
        (("slots.L0.adapters", "[{path = "), HCPValidationError, "not a TOML list"),
        (("remote.api_key", "sk-1"), HCPSecretError, "mol remote login"),
    ]
    for (key, value), error, match in cases:
        with pytest.raises(error, match=match):
            store.set(key, value, reason="try")
    with pytest.raises(HCPValidationError, match="reason is empty"):
        store.set("runtime.threads", "3", reason="  ")
    with pytest.raises(HCPValidationError, match="author = 'robot'"):
        store.update({"runtime.threads": 3}, reason="x", author="robot")
    with pytest.raises(HCPSecretError, match="mol remote login"):
        store.replace(store.active.read_text(encoding="utf-8") + "\n[remote]\ntoken = 'abc'\n", reason="tui edit")
    assert files(store) == before


def test_hand_edits_are_recorded_before_the_next_change(store: VersionStore) -> None:
    store.init("local-default")
    text = store.active.read_text(encoding="utf-8").replace("threads = 2", "threads = 6  # my laptop")
    store.active.write_text(text, encoding="utf-8")
    assert store.unrecorded_edits()
    store.set("memory.top_k", "2", reason="less")
    imported, mine = store.versions()[1:]
    assert (imported.author, imported.reason) == ("import", "recorded edit made outside mol")
    assert mine.parent == imported.n and "threads = 6  # my laptop" in store.active.read_text(encoding="utf-8")


def test_an_invalid_hand_edit_blocks_changes_and_is_kept(store: VersionStore) -> None:
    store.init("local-default")
    store.active.write_text("[runtime\n", encoding="utf-8")
    with pytest.raises(HCPSyntaxError, match="edited outside mol and is not valid"):
        store.set("runtime.threads", "3", reason="x")
    assert store.active.read_text(encoding="utf-8") == "[runtime\n" and len(store.versions()) == 1


def test_init_keeps_an_existing_file(store: VersionStore) -> None:
    store.init("local-default")
    with pytest.raises(HCPVersionError, match="already exists"):
        store.init("tall")
    version = store.init("tall", force=True)
    assert version.n == 2 and store.load().name == "tall"
    assert "local-default" in store.read(1)


def test_no_temp_files_left_behind(store: VersionStore) -> None:
    store.init("local-default")
    for n in range(3):
        store.set("runtime.threads", str(n + 2), reason=f"step {n}")
    leftovers = [p.name for p in store.home.rglob("*.tmp")]
    assert leftovers == [] and len(list(store.versions_dir.iterdir())) == 4


def test_runtime_loads_the_active_version(store: VersionStore, mol_home: Path) -> None:
    from mol_local.runtime import default_hcp_path, load_default_hcp

    store.set("runtime.threads", "3", reason="x")
    assert default_hcp_path() == mol_home / "hcp.toml"
    assert load_default_hcp().threads == 3
