"""Pinning: the m006 migration on a database written before it, pin/unpin, order, the cap, reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.db import open_db
from memory.errors import NotFound, TooManyPinned
from memory.migrations import migrations
from memory.store import PINNED_MAX, MemoryStore, new_memory


def test_migration_upgrades_an_existing_database(tmp_path: Path) -> None:
    """A store written before m006 (with a row already flagged pinned) opens, keeps its rows, and gains pin order."""
    from sqlite_utils import Database

    path = tmp_path / "old.db"
    old = Database(path)
    migrations.apply(old, stop_before="m006_add_memory_pinned_at")
    assert "pinned_at" not in old["memories"].columns_dict
    old["memories"].insert_all(
        [
            {"id": "a", "text": "plain", "kind": "fact", "origin": "cli", "pinned": 0, "created_at": "2026-01-01", "updated_at": "2026-01-01"},
            {"id": "b", "text": "flagged", "kind": "fact", "origin": "cli", "pinned": 1, "created_at": "2026-01-02", "updated_at": "2026-01-03"},
            {"id": "c", "text": "null flag", "kind": "fact", "origin": "cli", "pinned": None, "created_at": "2026-01-04", "updated_at": "2026-01-04"},
        ]
    )
    old.close()
    db = open_db(path)
    assert "m006_add_memory_pinned_at" in {m.name for m in migrations.applied(db)}
    store = MemoryStore(db)
    rows = store.list()
    assert [r.id for r in rows] == ["b", "a", "c"]
    assert rows[0].pinned and rows[0].pinned_at == "2026-01-03"
    assert not rows[2].pinned and rows[2].pinned_at is None
    store.pin("c")
    assert [r.id for r in store.pinned()] == ["b", "c"]


def test_pin_orders_first_survives_reopen_and_unpins(mol_home: Path) -> None:
    db = open_db(mol_home / "mol.db")
    store = MemoryStore(db)
    rows = [new_memory(t) for t in ("first", "second", "third")]
    store.add_many(rows)
    before = store.get(rows[2].id).updated_at
    store.pin(rows[2].id)
    store.pin(rows[1].id)
    again = store.pin(rows[2].id)  # idempotent: keeps its place
    assert again.updated_at == before  # the vector's version is untouched
    db.close()
    store = MemoryStore(open_db(mol_home / "mol.db"))
    assert [r.text for r in store.list()] == ["third", "second", "first"]
    assert [r.text for r in store.pinned()] == ["third", "second"]
    assert [r.text for r in store.containing("ir")] == ["third", "first"]
    row = store.unpin(rows[2].id)
    assert not row.pinned and row.pinned_at is None
    assert [r.text for r in store.pinned()] == ["second"]


def test_pin_refuses_beyond_the_cap_and_unknown_ids(db) -> None:
    store = MemoryStore(db)
    rows = [new_memory(f"memory {i}") for i in range(PINNED_MAX + 1)]
    store.add_many(rows)
    for row in rows[:PINNED_MAX]:
        store.pin(row.id)
    with pytest.raises(TooManyPinned, match="unpin one first"):
        store.pin(rows[-1].id)
    assert not store.get(rows[-1].id).pinned
    store.pin(rows[0].id)  # re-pinning one already pinned is not "one more"
    with pytest.raises(NotFound, match="No memory 'nope'"):
        store.pin("nope")
    with pytest.raises(NotFound, match="No memory 'nope'"):
        store.unpin("nope")
