"""Memory rows, text hygiene, and concurrent writers on the real SQLite file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memory.errors import InvalidMemory, NotFound
from memory.store import MemoryStore, new_memory
from memory.text import MAX_MEMORY_CHARS, clean_text
from memory.timeline import MessageRecord, TaskRecord, Timeline, TurnRecord, new_id


def test_new_tables_exist(db) -> None:
    for table in ("memories", "memory_uses", "consent_records", "forgotten_tasks", "retrain_marks", "notes", "reminders"):
        assert db[table].exists(), table


def test_add_get_list_update(db) -> None:
    store = MemoryStore(db)
    rows = [new_memory("I like  green\ttea"), new_memory("Trip to Oslo in May", kind="event")]
    store.add_many(rows)
    assert store.get(rows[0].id).text == "I like green tea"  # whitespace normalised
    assert [r.id for r in store.list()] == [r.id for r in rows]
    updated = store.update_text(rows[1].id, "Trip to Oslo in June")
    assert updated.text == "Trip to Oslo in June" and updated.updated_at >= rows[1].updated_at
    assert store.count() == 2
    assert [r.id for r in store.containing("OSLO")] == [rows[1].id]
    with pytest.raises(NotFound, match="mol memory list"):
        store.get("nope")


@pytest.mark.parametrize(
    ("text", "kind", "match"),
    [("   ", "fact", "Empty memory"), ("x" * (MAX_MEMORY_CHARS + 1), "fact", "at most"), ("ok", "gossip", "Unknown memory kind")],
)
def test_bad_memory_input(text: str, kind: str, match: str) -> None:
    with pytest.raises(InvalidMemory, match=match):
        new_memory(text, kind=kind)


def test_enormous_memory_names_size_and_fix() -> None:
    with pytest.raises(InvalidMemory) as err:
        new_memory("word " * 100_000)
    assert "shorten it" in str(err.value) and "\n" not in str(err.value)


def test_clean_text_handles_invalid_utf8() -> None:
    assert clean_text(b"ok \xff\xfe end") == "ok \ufffd\ufffd end"
    assert clean_text("bad \udcff surrogate") == "bad \ufffd\ufffd\ufffd surrogate"
    assert clean_text("fine ✓") == "fine ✓"


def test_tool_output_with_invalid_utf8_commits(db) -> None:
    """A tool result decoded with surrogateescape would make SQLite refuse the whole turn."""
    timeline = Timeline(db)
    task = TaskRecord(new_id(), new_id(), 0, "L0", status="closed")
    broken = b"result: \xff\xfe".decode("utf-8", errors="surrogateescape")
    timeline.commit_turn(
        TurnRecord(task.conversation_id, "t", task, True, [MessageRecord("user", "run it"), MessageRecord("tool", broken)], 0)
    )
    stored = timeline.load_tasks(task.conversation_id)[0].messages[1].content
    assert stored.startswith("result: ") and "\ufffd" in stored


WRITER = """
import sys
from memory.db import open_db
from memory.store import MemoryStore, new_memory
store = MemoryStore(open_db(sys.argv[1]))
for i in range(int(sys.argv[3])):
    store.add_many([new_memory(f"{sys.argv[2]} fact {i}")])
"""


def test_two_processes_writing_at_once_lose_nothing(db, mol_home: Path) -> None:
    path = str(mol_home / "mol.db")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, path, name, "150"]) for name in ("alpha", "beta")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    texts = {r.text for r in MemoryStore(db).list()}
    assert len(texts) == 300
    assert {f"alpha fact {i}" for i in range(150)} <= texts and {f"beta fact {i}" for i in range(150)} <= texts
