"""The store: migrations from empty, WAL, newer schemas refused, atomic transactions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memory.db import open_db, transaction
from memory.errors import MemoryStoreError, SchemaTooNew
from memory.migrations import migrations


def test_migrations_from_empty(tmp_path: Path) -> None:
    db = open_db(tmp_path / "m.db")
    names = {m.name for m in migrations.applied(db)}
    assert "m001_create_timeline" in names
    assert {"conversations", "tasks", "messages", "route_decisions", "summaries"} <= set(db.table_names())
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    # idempotent
    db2 = open_db(tmp_path / "m.db")
    assert {m.name for m in migrations.applied(db2)} == names


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    db = open_db(tmp_path / "m.db")
    db["_sqlite_migrations"].insert(
        {"migration_set": migrations.name, "name": "m999_from_the_future", "applied_at": "2030-01-01"}
    )
    with pytest.raises(SchemaTooNew, match="upgrade mol-local"):
        open_db(tmp_path / "m.db")


def test_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(MemoryStoreError, match="move it aside"):
        open_db(bad)


def test_transaction_rolls_back(tmp_path: Path) -> None:
    db = open_db(tmp_path / "m.db")
    with pytest.raises(RuntimeError):
        with transaction(db):
            db["conversations"].insert({"id": "c1", "title": "t", "created_at": "x", "updated_at": "x"})
            raise RuntimeError("crash mid-turn")
    assert db["conversations"].count == 0
    with transaction(db):
        db["conversations"].insert({"id": "c1", "title": "t", "created_at": "x", "updated_at": "x"})
    assert sqlite3.connect(tmp_path / "m.db").execute("select count(*) from conversations").fetchone()[0] == 1


def test_threads_write_and_read_one_store_at_once(tmp_path: Path) -> None:
    """The shape of `mol serve`: many threads, one Store. Before each thread had its own connection, a read on one
    thread opened a savepoint inside another's BEGIN ("cannot start a transaction within a transaction")."""
    import threading

    db = open_db(tmp_path / "m.db")
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            for i in range(40):
                with transaction(db) as tx:
                    tx["conversations"].insert({"id": f"c{w}-{i}", "title": "t", "created_at": "x", "updated_at": "x"})
                    assert tx.execute("select count(*) from conversations where id = ?", [f"c{w}-{i}"]).fetchone()[0] == 1
                list(db.query("select id from conversations limit 5"))  # a read between writes, outside any transaction
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sqlite3.connect(tmp_path / "m.db").execute("select count(*) from conversations").fetchone()[0] == 12 * 40


def test_a_transaction_inside_another_is_a_savepoint(tmp_path: Path) -> None:
    """An inner failure undoes only the inner writes; the outer transaction still decides (and keeps its lock)."""
    db = open_db(tmp_path / "m.db")
    row = {"title": "t", "created_at": "x", "updated_at": "x"}
    with transaction(db):
        db["conversations"].insert({"id": "outer", **row})
        with pytest.raises(RuntimeError):
            with transaction(db):
                db["conversations"].insert({"id": "inner", **row})
                raise RuntimeError("the inner write fails")
        assert db.conn.in_transaction
    assert [r["id"] for r in db.query("select id from conversations")] == ["outer"]
    with pytest.raises(RuntimeError):
        with transaction(db):
            with transaction(db):
                db["conversations"].insert({"id": "both", **row})
            raise RuntimeError("the outer fails after the inner succeeded")
    assert [r["id"] for r in db.query("select id from conversations")] == ["outer"]
