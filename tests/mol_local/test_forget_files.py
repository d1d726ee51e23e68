"""Forget reaches every byte: after `forget`, no file under MOL_HOME holds the words or the vectors.

The files are read raw — SQLite's database and WAL, every file of Chroma's
directory (`chroma.sqlite3` with its `embeddings_queue`, the HNSW segment), the
trainer's staged runs, saved KV, the tool workspace — for the marker's bytes,
and for any 384 float32 values at cosine >= 0.99 to the embedding of a
forgotten text, at every byte alignment. Before the forget both searches find
them, so they would see a leak.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory.index import DIM
from memory.store import new_memory
from mol_local.forget import home_of

pytestmark = pytest.mark.slow

MARKER = "ZEBRA-LOCKER-7731"
FACTS = [
    f"My locker code is {MARKER}",
    f"The spare key to locker {MARKER} is with my neighbour",
    f"I renew the {MARKER} locker every March",
    f"The gym that has locker {MARKER} opens at six",
]
KEPT = "I prefer aisle seats on long flights"


def files_with(home: Path, needle: bytes) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and needle in p.read_bytes())


def vector_hits(home: Path, targets: np.ndarray, threshold: float = 0.99) -> dict[str, int]:
    """File -> how many windows of DIM float32 values (any byte alignment) are at cosine >= threshold to a target."""
    out: dict[str, int] = {}
    for path in (p for p in home.rglob("*") if p.is_file()):
        data = path.read_bytes()
        hits = 0
        for align in range(4):
            n = (len(data) - align) // 4
            if n < DIM:
                continue
            with np.errstate(invalid="ignore", over="ignore"):
                x = np.frombuffer(data, dtype="<f4", count=n, offset=align).astype(np.float64)
            x = np.where(np.isfinite(x) & (np.abs(x) < 4.0), x, 0.0)  # a unit vector's parts are all below 1
            sq = np.concatenate([[0.0], np.cumsum(x * x)])
            norms = np.sqrt(np.maximum(sq[DIM:] - sq[:-DIM], 1e-12))
            size = 1 << int(np.ceil(np.log2(n + DIM)))
            fx = np.fft.rfft(x, size)
            for v in targets:
                dots = np.fft.irfft(fx * np.conj(np.fft.rfft(v.astype(np.float64), size)), size)[: n - DIM + 1]
                hits += int(np.sum(dots / norms >= threshold))
        if hits:
            out[str(path.relative_to(home))] = hits
    return out


def _seed(rt) -> tuple[str, str]:
    """Conversation A: four `/remember` turns with the marker, a UI view, a workspace file; B: a kept memory."""
    from memory.db import transaction

    a = rt.session()
    for fact in FACTS:
        a.run_turn(f"/remember {fact}")
    b = rt.session()
    b.run_turn(f"/remember {KEPT}")
    rt.memory.ensure_ready()  # the drift check indexes every memory (as the app's warm-up does)
    with transaction(rt.db) as tx:
        tx["genui_views"].insert({"id": "v1", "conversation_id": a.conversation_id, "task_id": a.tasks[0].id, "title": "t",
                                  "document": f'{{"title": "{MARKER}"}}', "created_at": "now"})
    for rel in ("trainer/runs/L0-0123456789ab/quality.json", "kv/L0-abc.state", f"workspace/{a.conversation_id}/notes.txt"):
        (home_of(rt) / rel).parent.mkdir(parents=True, exist_ok=True)
        (home_of(rt) / rel).write_text(f"staged from a turn: {MARKER}", encoding="utf-8")
    return a.conversation_id, b.conversation_id


@pytest.fixture
def rt(runtime):
    yield runtime
    runtime.memory.index._close()


def test_forget_conversation_leaves_no_byte_and_no_vector(rt) -> None:
    from mol_local.forget import forget_conversation

    a, b = _seed(rt)
    vectors = rt.memory.embedder.encode(FACTS)
    kept = rt.memory.embedder.encode([KEPT])
    assert {"mol.db", "mol.db-wal"} & set(files_with(home_of(rt), MARKER.encode()))
    before = vector_hits(home_of(rt), vectors)
    assert sum(before.values()) >= len(FACTS), before

    report = forget_conversation(rt, a)

    assert len(report.memories) == len(FACTS) and report.tasks == len(FACTS) and report.notices == []
    assert files_with(home_of(rt), MARKER.encode()) == []
    assert vector_hits(home_of(rt), vectors) == {}
    assert vector_hits(home_of(rt), kept)  # the scan still finds a vector that was kept
    assert [m.text for m in rt.memory.store.list()] == [KEPT] and rt.memory.search(KEPT, 1)[0].memory.text == KEPT
    assert (home_of(rt) / "mol.db-wal").stat().st_size == 0
    assert rt.db.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert rt.session(b).tasks[0].messages[0].content == f"/remember {KEPT}"


def test_forget_one_memory_leaves_no_byte_and_no_vector(rt) -> None:
    from mol_local.forget import forget_memories

    a, _ = _seed(rt)
    target = next(m for m in rt.memory.store.list() if m.text == FACTS[1])
    vec = rt.memory.embedder.encode([FACTS[1]])
    others = rt.memory.embedder.encode([FACTS[0], FACTS[2], FACTS[3]])
    needle = FACTS[1].encode()
    assert files_with(home_of(rt), needle) and vector_hits(home_of(rt), vec)

    report = forget_memories(rt, [target.id])

    assert report.memories == [{"id": target.id, "text": FACTS[1]}]
    assert files_with(home_of(rt), needle) == []
    assert vector_hits(home_of(rt), vec) == {}
    assert sum(vector_hits(home_of(rt), others).values()) >= 3
    assert rt.memory.store.count() == len(FACTS)  # three of A's and B's remain
    assert list(home_of(rt).glob("trainer/runs/*")) == [] and not (home_of(rt) / "kv").exists()


def test_forget_with_a_reader_open_in_another_connection_says_so(rt, tmp_path) -> None:
    """A reader holding the log (another mol process mid-read) cannot be waited out forever: the report says why."""
    import sqlite3

    from mol_local.forget import forget_memories

    rt.memory.add([new_memory(f"My locker code is {MARKER}")], index_now=False)
    reader = sqlite3.connect(home_of(rt) / "mol.db")
    reader.execute("begin")
    reader.execute("select count(*) from memories").fetchone()  # a read transaction pins the WAL
    try:
        report = forget_memories(rt, [m.id for m in rt.memory.store.list()])
    finally:
        reader.rollback()
        reader.close()
    assert report.notices and "write-ahead log" in report.notices[0]
    assert rt.memory.store.count() == 0
