"""Forgetting for real: SQLite, Chroma, views, training sets and adapter revisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory.bank import MemoryBank
from memory.consent import FORGOTTEN, eligible_trajectories, set_consent, training_id
from memory.errors import NotFound
from memory.forget import forget_conversation, forget_everything, forget_memories, retrain_marks
from memory.store import new_memory
from memory.timeline import Timeline
from mol_local.adapters.registry import Registry
from tests.memory.conftest import commit_turn

pytestmark = pytest.mark.slow

SECRET = "The wifi password at home is tulip42"


def _manifest(root: Path, slot: str, rev: str, ids: list[str]) -> Path:
    folder = root / slot / "personal" / rev
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"training_data_ids": ids}), encoding="utf-8")
    return folder


def _everywhere(bank: MemoryBank, db, text: str) -> list[str]:
    """Where `text` still appears: search, SQLite tables, the timeline views, training trajectories."""
    found = []
    if any(text in r.memory.text for r in bank.search(text, 10)):
        found.append("search")
    for table in ("memories", "messages", "summaries", "conversations"):
        cols = [c.name for c in db[table].columns if c.type == "TEXT"]
        if any(text in str(v) for row in db[table].rows for k, v in row.items() if k in cols):
            found.append(table)
    timeline = Timeline(db)
    for conv in timeline.list_conversations():
        if any(text in m.content for t in timeline.load_tasks(conv["id"]) for m in t.messages):
            found.append("view")
    if any(text in json.dumps(t.messages) for t in eligible_trajectories(db, default_on=True)):
        found.append("training")
    return found


def test_forget_memory_everywhere_and_mark_adapters(bank: MemoryBank, db, mol_home: Path) -> None:
    row = new_memory(SECRET, origin="explicit", conversation_id="c1")
    source = commit_turn(db, "c1", f"/remember {SECRET}", "I'll remember that.", memory=row)
    bank.ensure_ready()
    other = bank.add([new_memory("I prefer aisle seats on long flights")])[0]
    used_by = commit_turn(db, "c1", "what is the wifi password?", "tulip42")
    with db.conn:
        db["memory_uses"].insert({"task_id": used_by, "memory_id": row.id, "rank": 0, "score": 0.9, "created_at": "now"})
    set_consent(db, "c1", True)
    root = mol_home / "adapters"
    hit = _manifest(root, "L0", "r1", [training_id(source), "unrelated"])
    hit_used = _manifest(root, "L1", "r2", [training_id(used_by)])
    clean = _manifest(root, "L2", "r3", ["unrelated"])
    assert _everywhere(bank, db, SECRET)

    report = forget_memories(bank, [row.id], Registry(root))

    assert report.memories == [{"id": row.id, "text": SECRET}]
    assert _everywhere(bank, db, SECRET) == []
    assert row.id not in bank.index.versions() and other.id in bank.index.versions()
    assert set(report.marked_revisions) == {str(hit), str(hit_used)} and str(clean) not in report.marked_revisions
    assert {m["revision_path"] for m in retrain_marks(db)} == {str(hit), str(hit_used)}
    assert {t.task_id for t in eligible_trajectories(db)} == set()  # both turns are out of training
    assert Timeline(db).load_tasks("c1")[0].messages[0].content == FORGOTTEN


def test_forget_unknown_memory_changes_nothing(bank: MemoryBank, db, mol_home: Path) -> None:
    kept = bank.add([new_memory("I am learning the cello")])[0]
    with pytest.raises(NotFound, match="mol memory list"):
        forget_memories(bank, [kept.id, "nope"], Registry(mol_home / "adapters"))
    assert bank.store.count() == 1


def test_forget_conversation(bank: MemoryBank, db, mol_home: Path) -> None:
    row = new_memory(SECRET, conversation_id="c1")
    t1 = commit_turn(db, "c1", f"/remember {SECRET}", "ok", memory=row)
    commit_turn(db, "c2", "I like tea", "ok")
    db["notes"].insert({"id": "n1", "conversation_id": "c1", "title": "wifi", "body": SECRET, "created_at": "", "updated_at": ""})
    bank.ensure_ready()
    marked = _manifest(mol_home / "adapters", "L0", "r1", [t1])  # raw ids are matched too
    report = forget_conversation(bank, "c1", Registry(mol_home / "adapters"))
    assert report.conversations == 1 and report.tasks == 1 and report.marked_revisions == [str(marked)]
    assert _everywhere(bank, db, SECRET) == [] and db["notes"].count == 0
    assert [c["id"] for c in Timeline(db).list_conversations()] == ["c2"]
    assert bank.index.count() == 0
    with pytest.raises(NotFound):
        forget_conversation(bank, "c1", Registry(mol_home / "adapters"))


def test_forget_everything(bank: MemoryBank, db, mol_home: Path) -> None:
    commit_turn(db, "c1", f"/remember {SECRET}", "ok", memory=new_memory(SECRET, conversation_id="c1"))
    bank.add([new_memory("A memory added from the command line")])
    report = forget_everything(bank, Registry(mol_home / "adapters"))
    assert len(report.memories) == 2 and report.conversations == 1
    for table in ("conversations", "tasks", "messages", "summaries", "memories"):
        assert db[table].count == 0, table
    assert bank.index.count() == 0 and _everywhere(bank, db, SECRET) == []
