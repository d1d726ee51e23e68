"""The one place the SQLite store is opened and migrated, and the one way to write to it.

Every thread gets its own connection to the file (`Store.conn` is per thread).
One connection shared by threads let a read on one thread open a SAVEPOINT
inside another thread's BEGIN, or start a transaction that the other's BEGIN
then ran into ("cannot start a transaction within a transaction", "no such
savepoint": 1,171 of 1,596 `/remember` requests against `mol serve`). With a
connection each, a reader sees only committed data and never touches another
thread's transaction.

Writers queue twice: inside one process on the store's re-entrant lock, which
`transaction` takes itself (no caller can forget it), and across processes on
SQLite's write lock (`BEGIN IMMEDIATE` + the busy timeout).
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlite_utils import Database

from memory.errors import MemoryStoreError, SchemaTooNew
from memory.migrations import migrations

BUSY_TIMEOUT_MS = 10_000
_other_locks: weakref.WeakKeyDictionary[Database, threading.RLock] = weakref.WeakKeyDictionary()
_other_locks_guard = threading.Lock()


class Store(Database):
    """A sqlite-utils Database whose `conn` is this thread's own connection to one file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.lock = threading.RLock()  # the in-process writer lock; `transaction` takes it
        self._local = threading.local()
        self._conns: list[tuple[weakref.ref[threading.Thread], sqlite3.Connection]] = []
        self._conns_guard = threading.Lock()
        self._closed = False
        super().__init__(self._connect(), execute_plugins=False)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False, isolation_level=None)
        for pragma in (f"busy_timeout = {BUSY_TIMEOUT_MS}", "foreign_keys = ON", "synchronous = NORMAL",
                       "secure_delete = ON", "recursive_triggers = ON"):
            conn.execute(f"PRAGMA {pragma}")  # secure_delete: a deleted row's bytes are zeroed, not left in free space
        return conn

    @property  # type: ignore[override]
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._closed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            conn = self._connect()
            self._adopt(conn)
        return conn

    @conn.setter
    def conn(self, value: sqlite3.Connection) -> None:  # Database.__init__ sets the first one
        self._adopt(value)

    def _adopt(self, conn: sqlite3.Connection) -> None:
        """Keep this thread's connection; close those of threads that have ended."""
        self._local.conn = conn
        with self._conns_guard:
            alive = []
            for ref, other in self._conns:
                thread = ref()
                if thread is None or not thread.is_alive():
                    other.close()
                else:
                    alive.append((ref, other))
            self._conns = alive + [(weakref.ref(threading.current_thread()), conn)]

    def close(self) -> None:
        """Close every thread's connection; later use raises, as a closed sqlite3 connection does."""
        self._closed = True
        with self._conns_guard:
            for _ref, conn in self._conns:
                conn.close()
            self._conns = []

    def checkpoint(self, wait_ms: int = 100) -> bool:
        """Copy the WAL into the database file and truncate it to zero bytes (after a forget).

        Returns False when another connection's open read kept part of the log;
        the next checkpoint (SQLite runs them on its own) finishes the job.
        A reader blocks a TRUNCATE checkpoint for the whole busy timeout (10 s), so it waits `wait_ms` at most:
        with another mol window open, a forget that tried 20 times took 200 s.
        """
        self.conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
        try:
            busy, _log, _done = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return busy == 0


def db_lock(db: Database) -> threading.RLock:
    """The re-entrant writer lock of this database (a Store's own; one per object for any other)."""
    if isinstance(db, Store):
        return db.lock
    with _other_locks_guard:
        return _other_locks.setdefault(db, threading.RLock())


def open_db(path: Path | str) -> Store:
    """Open (creating if needed) the store: WAL, foreign keys, busy timeout, migrations applied.

    Refuses a database whose applied migrations include names this version does
    not know: it was written by a newer mol-local, and guessing would lose data.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        db = Store(path)
        db.execute("PRAGMA journal_mode = WAL")
    except sqlite3.DatabaseError as exc:
        raise MemoryStoreError(f"{path} is not a usable SQLite database ({exc}) — move it aside and restart") from exc
    applied = {m.name for m in migrations.applied(db)}
    known = applied & {m.name for m in migrations.pending(Database(memory=True))}
    unknown = applied - known
    if unknown:
        raise SchemaTooNew(
            f"{path} was written by a newer mol-local (unknown migrations: {', '.join(sorted(unknown))}) — upgrade mol-local"
        )
    with db_lock(db):
        migrations.apply(db)
    return db


class transaction:
    """`with transaction(db):` — BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error.

    It takes the database's re-entrant lock first, so two threads of one process
    queue here, and IMMEDIATE takes SQLite's write lock up front, so two
    processes wait (busy timeout) instead of failing half-way. A transaction
    opened inside another on the same thread is a SAVEPOINT of it: its error
    undoes only its own writes, and the outer one still decides.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self._lock = db_lock(db)
        self._savepoint: str | None = None

    def __enter__(self) -> Database:
        self._lock.acquire()
        try:
            conn = self.db.conn
            if conn.in_transaction:
                self._savepoint = f"mol_tx_{id(self):x}"
                conn.execute(f"SAVEPOINT {self._savepoint}")
            else:
                conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise
        return self.db

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> Any:
        conn = self.db.conn
        try:
            if self._savepoint is not None:
                if exc_type is not None and conn.in_transaction:
                    conn.execute(f"ROLLBACK TO {self._savepoint}")
                if conn.in_transaction:
                    conn.execute(f"RELEASE {self._savepoint}")
            elif exc_type is not None:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            else:
                try:
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
        finally:
            self._lock.release()
        return None
