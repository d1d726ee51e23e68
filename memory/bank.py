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
from datetime import datetime
from pathlib import Path

import numpy as np
from sqlite_utils import Database

from memory import fts
from memory.errors import MemoryStoreError
from memory.index import Embedder, VectorIndex
from memory.store import SAID, MemoryRow, MemoryStore
from memory.timewords import NOW_QUESTION, in_window, time_window

SYNC_BATCH = 256
RRF_K = 60  # reciprocal rank fusion's damping constant (the usual value)
RRF_POOL = 20  # candidates each ranking contributes


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
            self._check_keywords()
            self._ready = True
            return report

    def _check_keywords(self) -> None:
        """The FTS5 table is checked once per open and rebuilt from SQLite if it is missing or out of step."""
        from memory.db import transaction

        reason = fts.check(self.store.db)
        if reason is not None:
            with transaction(self.store.db) as db:
                fts.rebuild(db)
            self.notices.append(f"Note: {reason}; rebuilt it from SQLite ({self.store.count()} memories)")

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
    def search(self, query: str, k: int = 5, *, min_score: float | None = None, mode: str = "hybrid",
               now: datetime | None = None, said: bool = True) -> list[Recalled]:
        """The k memories that best answer `query`, best first. Never loads anything when the store is empty.

        `hybrid` fuses the vector index (meaning) and FTS5 (words) by reciprocal rank, and when the query
        names a time ("last week", "in May 2023") a third ranking of the candidates said then; `dense`
        and `keyword` are each alone (the bench's baselines). A result's score is its cosine similarity to
        the query; `min_score` drops results below it unless they hold one of the query's words as written
        (or the month or year they were said in, as the keyword index does). What the person said (kind
        "said") is left out without `said`.
        """
        if k <= 0 or not query.strip() or self.store.count() == 0:
            return []
        pool = max(RRF_POOL, 4 * k)
        with self._lock:
            self.ensure_ready()
            vec = self.embedder.encode([query])[0]
            dense = [(h.id, h.score) for h in self.index.query(vec, pool)] if mode != "keyword" else []
        words = fts.keyword_search(self.store.db, query, pool) if mode != "dense" else []
        rankings = [[i for i, _ in dense], [i for i, _ in words]]
        scores = dict(dense)
        fused = fuse(rankings)
        rows = self.store.by_ids(fused)  # SQLite decides: an id without a row is never returned
        if mode == "hybrid":  # time words: what was said then, or for "now" questions the newest first
            window = time_window(query, now or datetime.now())
            if window is not None:
                rankings.append([i for i in fused if i in rows and in_window(rows[i].said_at, window)])
            if NOW_QUESTION.search(query):
                rankings.append(sorted((i for i in fused if i in rows), key=lambda i: rows[i].said_at or "", reverse=True))
            fused = fuse(rankings)
        missing = [i for i in fused[: 2 * k] if i in rows and i not in scores]
        if missing:
            with self._lock:
                for i, v in self.index.vectors(missing).items():
                    scores[i] = float(np.dot(vec, v))
        asked = fts.terms(query)
        vouched = {i for i, _ in words if i in rows and fts.says_any(f"{rows[i].text} {fts.date_words(rows[i].said_at)}", asked)}
        out = []
        for i in fused:
            if i not in rows or (rows[i].kind == SAID and not said):
                continue
            score = scores.get(i, 0.0)
            if min_score is not None and score < min_score and i not in vouched:
                continue
            out.append(Recalled(rows[i], score))
            if len(out) == k:
                break
        return out

    def nearest(self, text: str, *, threshold: float) -> Recalled | None:
        """The closest memory in meaning if it is at least `threshold` similar (near-duplicate check)."""
        found = self.search(text, 1, min_score=threshold, mode="dense", said=False)
        return found[0] if found and found[0].score >= threshold else None


def fuse(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal rank fusion: each list gives 1 / (k + rank); ids ordered by the sum."""
    total: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking):
            total[item] = total.get(item, 0.0) + 1.0 / (k + rank + 1)
    return sorted(total, key=lambda i: -total[i])
