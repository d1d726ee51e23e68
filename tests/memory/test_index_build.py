"""A forget's rebuild of the vector index runs in a child process (memory/index_build.py says why)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from memory.errors import IndexUnavailable
from memory.index import DIM, VectorIndex, open_collection
from memory.index_build import build_in_child

pytestmark = pytest.mark.slow


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def test_the_child_writes_exactly_the_vectors_it_is_given(tmp_path: Path) -> None:
    vectors = np.stack([unit(1), unit(2), unit(3)])
    build_in_child(tmp_path / "fresh", ["a", "b", "c"], vectors, ["v1", "v2", "v3"])
    client, col = open_collection(tmp_path / "fresh")
    got = col.get(include=["embeddings", "metadatas"])
    assert sorted(got["ids"]) == ["a", "b", "c"]
    by_id = dict(zip(got["ids"], got["embeddings"]))
    assert np.allclose(by_id["b"], vectors[1]) and {m["updated_at"] for m in got["metadatas"]} == {"v1", "v2", "v3"}


def test_a_child_that_cannot_write_is_one_line_that_names_the_fix(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(IndexUnavailable, match=r"Could not rebuild the vector index at .* — run `mol memory reindex`") as err:
        build_in_child(blocker / "fresh", ["a"], unit(1)[None, :], ["v1"])
    assert "\n" not in str(err.value)


def test_compact_keeps_the_rest_and_leaves_no_side_folder(tmp_path: Path) -> None:
    index = VectorIndex(tmp_path / "chroma")
    index.open()
    index.upsert(["keep", "drop"], np.stack([unit(4), unit(5)]), ["1", "2"])
    assert index.compact(lambda i: i == "keep") == 1
    assert index.count() == 1 and index.query(unit(4), 2)[0].id == "keep"
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["chroma"]


def test_a_child_whose_parent_has_gone_writes_nothing(tmp_path: Path) -> None:
    """A killed forget must not leave a child writing beside an index another process opens."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "memory.index_build", str(tmp_path / "fresh"), "1"],
                          input=b"", capture_output=True, timeout=60, check=False)
    assert done.returncode != 0 and b"has gone" in done.stderr
    assert not (tmp_path / "fresh").exists()
