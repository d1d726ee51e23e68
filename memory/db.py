"""The one place the SQLite store is opened and migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlite_utils import Database

from memory.errors import MemoryStoreError, SchemaTooNew
from memory.migrations import migrations

BUSY_TIMEOUT_MS = 10_000


def open_db(path: Path | str) -> Database:
    """Open (creating if needed) the store: WAL, foreign keys, busy timeout, migrations applied.

    Refuses a database whose applied migrations include names this version does
    not know: it was written by a newer mol-local, and guessing would lose data.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db = Database(conn)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.DatabaseError as exc:
        raise MemoryStoreError(f"{path} is not a usable SQLite database ({exc}) — move it aside and restart") from exc
    applied = {m.name for m in migrations.applied(db)}
    known = applied & {m.name for m in migrations.pending(Database(memory=True))}
    unknown = applied - known
    if unknown:
        raise SchemaTooNew(
            f"{path} was written by a newer mol-local (unknown migrations: {', '.join(sorted(unknown))}) — upgrade mol-local"
        )
    migrations.apply(db)
    return db


class transaction:
    """`with transaction(db):` — BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error.

    IMMEDIATE takes the write lock up front, so two processes writing at once
    wait (busy timeout) instead of failing half-way.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    def __enter__(self) -> Database:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
