"""MemoryBank: memories in SQLite (truth) plus their vector index (Chroma), kept in step.

The index is opened lazily, once, and checked for drift against SQLite when it
opens: vectors missing or stale are re-embedded, vectors of deleted memories
are removed, and an index that is missing or unreadable is rebuilt from SQLite
and reported in `notices`. The app calls `warm_up()` so this happens on a
background thread, never on the UI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from memory.errors import MemoryStoreError
from memory.index import Embedder, VectorIndex
from memory.store import MemoryRow, MemoryStore

SYNC_BATCH = 256


@dataclass
class SyncReport:
    added: int = 0
    removed: int = 0
    rebuilt: bool = False
    reason: str | None = None
    total: int = 0


@dataclass(frozen=True)
class Recalled:
    memory: MemoryRow
    score: float


class MemoryBank:
    def __init__(self, db: Database, index_path: Path, *, embedder: Embedder | None = None) -> None:
        self.store = MemoryStore(db)
        self.embedder = embedder or Embedder()
        self.index = VectorIndex(index_path)
        self.notices: list[str] = []  # user-facing lines, e.g. "rebuilt the index from SQLite"
        self.last_sync: SyncReport | None = None
        self._ready = False
        self._lock = threading.RLock()
        self._warm: threading.Thread | None = None
        self.warm_error: MemoryStoreError | None = None
        self._viewing: dict[str, dict[str, float]] = {}  # conversation -> memories in its running turn's view
        self._viewing_lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._ready

    def warm_up(self) -> threading.Thread:
        """Load the embedder and open + check the index on a daemon thread (idempotent)."""
        with self._lock:
            if self._warm is None:
                self._warm = threading.Thread(target=self._warm_target, name="memory-warm-up", daemon=True)
                self._warm.start()
            return self._warm

    def _warm_target(self) -> None:
        try:
            self.embedder.load()
            self.ensure_ready()
        except MemoryStoreError as exc:  # a background thread cannot raise to anyone: keep it for the UI
            self.warm_error = exc

    def ensure_ready(self) -> SyncReport | None:
        """Open the index and bring it in step with SQLite; returns the report the first time."""
        with self._lock:
            if self._ready:
                return None
            existed = self.index.path.exists()
            reason = self.index.open()
            if not existed:  # first use is not a loss; a missing index with memories in SQLite is
                reason = f"the vector index at {self.index.path} was missing" if self.store.count() else None
            if reason is None and not self.index.model_matches():
                self.index.wipe()
                reason = "the vector index was built with another embedding model"
            report = self._sync(reason)
            self._ready = True
            return report

    def _sync(self, reason: str | None) -> SyncReport:
        want = self.store.versions()
        have = self.index.versions()
        stale = [i for i, v in want.items() if have.get(i) != v]
        extra = [i for i in have if i not in want]
        if extra:
            self.index.delete(extra)
        for i in range(0, len(stale), SYNC_BATCH):
            self._embed_into_index(list(self.store.by_ids(stale[i : i + SYNC_BATCH]).values()))
        report = SyncReport(added=len(stale), removed=len(extra), rebuilt=reason is not None, reason=reason, total=len(want))
        if reason:
            self.notices.append(f"Note: {reason}; rebuilt it from SQLite ({len(want)} memories)")
        elif stale or extra:
            self.notices.append(f"Note: the vector index had drifted; re-indexed {len(stale)} and dropped {len(extra)} vectors")
        self.last_sync = report
        return report

    def reindex(self) -> SyncReport:
        """Drop the vector index and rebuild it from SQLite (`mol memory reindex`)."""
        with self._lock:
            self.index.wipe()
            report = self._sync(None)
            report.rebuilt = True
            self._ready = True
            return report

    def _embed_into_index(self, rows: Sequence[MemoryRow]) -> None:
        if rows:
            vecs = self.embedder.encode([r.text for r in rows])
            self.index.upsert([r.id for r in rows], vecs, [r.updated_at for r in rows])

    # -- writing --------------------------------------------------------------
    def add(self, rows: Sequence[MemoryRow], *, index_now: bool = True, sources: Sequence[str] = ()) -> list[MemoryRow]:
        """Store rows in SQLite (one transaction), then index them.

        With index_now=False and the index not loaded yet, indexing is left to
        the drift check at the next open: SQLite already holds the truth.
        `sources`: other conversations whose words the rows hold (see memory.consent).
        """
        if index_now:
            self.ensure_ready()  # check drift first, so the new rows are not reported as drift
        self.store.add_many(rows, sources)
        self.index_rows(rows, index_now=index_now)
        return list(rows)

    def index_rows(self, rows: Sequence[MemoryRow], *, index_now: bool = True) -> None:
        with self._lock:
            if not self._ready and not index_now:
                return
            if not self._ready:
                self.ensure_ready()  # its drift check indexes these rows too
                return
            self._embed_into_index(rows)

    def update(self, memory_id: str, text: str, *, sources: Sequence[str] = ()) -> MemoryRow:
        row = self.store.update_text(memory_id, text, sources)
        self.index_rows([row], index_now=False)
        return row

    def merge(self, target_id: str, text: str, others: Sequence[str], *, sources: Sequence[str] = ()) -> MemoryRow:
        """`MemoryStore.merge`, then the index: the target re-embedded, the others' vectors dropped."""
        row = self.store.merge(target_id, text, others, sources)
        with self._lock:
            if self._ready and others:
                self.index.delete(list(others))
        self.index_rows([row], index_now=False)
        return row

    def discard(self, memory_id: str) -> bool:
        """`MemoryStore.discard` and its vector; False (nothing done) if a turn has viewed it."""
        if not self.store.discard(memory_id):
            return False
        with self._lock:
            if self._ready:
                self.index.delete([memory_id])
        return True

    def drop_vectors(self, ids: Sequence[str]) -> None:
        """After the SQLite rows are gone: rebuild the index without their vectors, or any other whose
        row is gone (a forget: Chroma's delete leaves the bytes behind, see VectorIndex.compact)."""
        with self._lock:
            self.ensure_ready()
            gone, rows = set(ids), self.store.versions()
            self.index.compact(lambda i: i not in gone and i in rows)

    # -- what a running turn's view holds (memory.consent) ---------------------
    def viewing(self, conversation_id: str, found: Sequence[Recalled], *, fresh: bool = False) -> None:
        """Note memories put in the view of `conversation_id`'s turn before it commits: recall's tail
        (`fresh`: a new turn starts the list) and whatever a tool's search returned. The commit records
        them as the turn's uses (`take_viewing`); a turn that never commits leaves them to the next one,
        which errs on the side of keeping a turn out of training."""
        with self._viewing_lock:
            held = {} if fresh else self._viewing.get(conversation_id, {})
            for r in found:
                held.setdefault(r.memory.id, r.score)
            self._viewing[conversation_id] = held

    def take_viewing(self, conversation_id: str) -> list[tuple[str, float]]:
        """(memory id, score) of everything `viewing` noted for this conversation, in order; the list is emptied."""
        with self._viewing_lock:
            return list(self._viewing.pop(conversation_id, {}).items())

    def write_sources(self, conversation_id: str | None, memory_ids: Sequence[str] = ()) -> list[str]:
        """The conversations whose words a memory written now from `conversation_id` may hold: that one, the
        sources of `memory_ids`, of what its running turn's view holds, and of what its earlier views held."""
        with self._viewing_lock:
            held = list(self._viewing.get(conversation_id, {})) if conversation_id else []
        out = self.store.sources([*memory_ids, *held])
        if conversation_id:
            out |= {conversation_id} | self.store.view_sources(conversation_id)
        return sorted(out)

    # -- reading --------------------------------------------------------------
    def search(self, query: str, k: int = 5, *, min_score: float | None = None) -> list[Recalled]:
        """The k memories nearest to `query`, best first. Never loads anything when the store is empty."""
        if k <= 0 or not query.strip() or self.store.count() == 0:
            return []
        with self._lock:
            self.ensure_ready()
            vec = self.embedder.encode([query])[0]
            hits = self.index.query(vec, k + 4)
        rows = self.store.by_ids(h.id for h in hits)  # SQLite decides: a vector without a row is never returned
        out = [Recalled(rows[h.id], h.score) for h in hits if h.id in rows]
        if min_score is not None:
            out = [r for r in out if r.score >= min_score]
        return out[:k]

    def nearest(self, text: str, *, threshold: float) -> Recalled | None:
        """The closest memory if it is at least `threshold` similar (near-duplicate check)."""
        found = self.search(text, 1, min_score=threshold)
        return found[0] if found else None
