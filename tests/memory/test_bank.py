"""The vector index on the real MiniLM model and a real Chroma directory: recall, drift, rebuild."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from memory.bank import MemoryBank
from memory.index import DIM, Embedder
from memory.store import new_memory
from tests.memory.conftest import FACTS

pytestmark = pytest.mark.slow  # loads torch + sentence-transformers once per run


def _add(bank: MemoryBank) -> dict[str, str]:
    rows = bank.add([new_memory(t) for t in FACTS])
    return {r.text: r.id for r in rows}


def test_embedder_is_local_normalised_and_lazy() -> None:
    emb = Embedder()
    vecs = emb.encode(["hello", "a second sentence"])
    assert vecs.shape == (2, DIM) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)


def test_empty_store_loads_nothing(bank: MemoryBank) -> None:
    assert bank.search("anything", 5) == []
    assert not bank.ready and not bank.index.path.exists()


def test_paraphrased_queries_find_their_fact(bank: MemoryBank) -> None:
    ids = _add(bank)
    found = bank.search("which food does Ana react badly to?", 3)
    assert found[0].memory.id == ids[FACTS[0]]
    assert found[0].score > found[1].score
    assert bank.search("where do I like to sit on a plane", 1)[0].memory.id == ids[FACTS[1]]
    assert bank.notices == []  # nothing drifted


def test_deleted_index_is_rebuilt_from_sqlite_and_says_so(bank: MemoryBank, db, mol_home) -> None:
    ids = _add(bank)
    shutil.rmtree(mol_home / "chroma")
    again = MemoryBank(db, mol_home / "chroma")
    assert again.search("instrument I practise", 1)[0].memory.id == ids[FACTS[4]]
    assert again.last_sync.rebuilt and "missing" in again.notices[0] and "rebuilt it from SQLite (5 memories)" in again.notices[0]


def test_corrupt_index_is_rebuilt(bank: MemoryBank, db, mol_home) -> None:
    ids = _add(bank)
    (mol_home / "chroma" / "chroma.sqlite3").write_bytes(b"not a database" * 100)
    again = MemoryBank(db, mol_home / "chroma")
    assert again.search("home network password", 1)[0].memory.id == ids[FACTS[2]]
    assert "unreadable" in again.notices[0] and again.index.count() == len(FACTS)


def test_a_collection_without_its_metadata_segment_is_rebuilt_at_open(bank: MemoryBank, db, mol_home) -> None:
    """What a kill while Chroma creates a collection can leave: the collection row without its segments."""
    import sqlite3

    ids = _add(bank)
    bank.index._close()
    con = sqlite3.connect(mol_home / "chroma" / "chroma.sqlite3")
    con.execute("delete from segments where scope = 'METADATA'")
    con.commit()
    con.close()
    again = MemoryBank(db, mol_home / "chroma")
    assert again.search("home network password", 1)[0].memory.id == ids[FACTS[2]]
    assert "Missing metadata segment" in again.notices[0] and again.index.count() == len(FACTS)


def test_a_reindex_killed_between_its_renames_is_rebuilt(bank: MemoryBank, db, mol_home) -> None:
    """wipe() renames the old index away, then the empty one in: killed between, the index is missing."""
    ids = _add(bank)
    bank.index._close()
    (mol_home / "chroma").rename(mol_home / ".chroma.old")
    (mol_home / ".chroma.new").mkdir()
    again = MemoryBank(db, mol_home / "chroma")
    assert again.search("instrument I practise", 1)[0].memory.id == ids[FACTS[4]]
    assert "missing" in again.notices[0] and again.index.count() == len(FACTS)
    assert not (mol_home / ".chroma.old").exists() and not (mol_home / ".chroma.new").exists()


def test_drift_is_repaired_at_open(bank: MemoryBank, db, mol_home) -> None:
    ids = _add(bank)
    cello = ids[FACTS[4]]
    db.execute("delete from memories where id = ?", [cello])  # a row gone behind the index's back
    db.execute("update memories set text = 'My brother Tom is allergic to shellfish', updated_at = 'z' where id = ?", [ids[FACTS[0]]])
    again = MemoryBank(db, mol_home / "chroma")
    found = again.search("cello lessons", 5)
    assert cello not in {r.memory.id for r in found}
    assert again.last_sync.removed == 1 and again.last_sync.added == 1
    assert again.search("seafood allergy", 1)[0].memory.id == ids[FACTS[0]]
    assert again.index.count() == len(FACTS) - 1


def test_vector_without_row_is_never_returned(bank: MemoryBank, db) -> None:
    ids = _add(bank)
    db.execute("delete from memories where id = ?", [ids[FACTS[2]]])  # index still holds the vector
    assert ids[FACTS[2]] not in {r.memory.id for r in bank.search("wifi password", 5)}


def test_reindex_rebuilds_everything(bank: MemoryBank) -> None:
    _add(bank)
    report = bank.reindex()
    assert report.rebuilt and report.total == len(FACTS) and bank.index.count() == len(FACTS)


def test_warm_up_runs_off_the_calling_thread(bank: MemoryBank) -> None:
    _add(bank)
    fresh = MemoryBank(bank.store.db, bank.index.path)
    thread = fresh.warm_up()
    assert thread.daemon and thread is fresh.warm_up()
    thread.join(timeout=120)
    assert fresh.ready and fresh.embedder.loaded and fresh.warm_error is None
