"""Build a fresh Chroma index in a child process, so a forget's rebuild cannot write a forgotten vector.

hnswlib allocates its element buffer with `malloc` at Chroma's default capacity
(100 elements) and persists the whole buffer, used or not: `data_level0.bin` is
206,000 bytes for an index of four vectors (or none). In the process that held
the old index, that fresh buffer can be memory the old one freed, so the unused
slots of the *rebuilt* index carried a forgotten memory's vector to disk
(`tests/mol_local/test_forget_files.py` caught a window at cosine >= 0.99 in 1
of 5 full runs, and once in CI). A child process's heap never held the
forgotten vectors: it receives only the kept ones, on its standard input, and
writes the directory. The parent opens the new directory at its next use, not at
once (opening a Chroma client writes to its files). Not ruled out: a later write
by a process that held the old index putting freed bytes into a new page.

Run as `python -m memory.index_build PATH PARENT_PID` with an `.npz` (ids,
vectors, versions) on stdin; it exits 0 when the collection is written. It dies
with its parent (Linux): a killed forget leaves what a killed in-process rebuild
left, a half-made side folder that the next open drops, never a child still
writing beside an index another process has opened.
"""

from __future__ import annotations

import ctypes
import io
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memory.errors import IndexUnavailable

BUILD_TIMEOUT_S = 600.0  # 100k vectors take about a minute on a slow laptop
BATCH = 1000


def build_in_child(path: Path, ids: Sequence[str], vectors: np.ndarray, versions: Sequence[str]) -> None:
    """Write a collection holding exactly these vectors at `path` (which must not exist yet), in a child process."""
    buf = io.BytesIO()
    np.savez(buf, ids=np.asarray(list(ids), dtype=str), vectors=np.asarray(vectors, dtype=np.float32),
             versions=np.asarray(list(versions), dtype=str))
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False", "HF_HUB_OFFLINE": "1"}
    try:
        done = subprocess.run([sys.executable, "-m", "memory.index_build", str(path), str(os.getpid())], input=buf.getvalue(),
                              capture_output=True, timeout=BUILD_TIMEOUT_S, env=env, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise IndexUnavailable(f"Could not rebuild the vector index at {path} ({exc}) — run `mol memory reindex`") from exc
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        raise IndexUnavailable(f"Could not rebuild the vector index at {path} ({why[0][:160]}) — run `mol memory reindex`")


def _die_with(parent: int) -> None:
    """Ask the kernel for SIGKILL when the parent goes (Linux only), then check it has not gone already."""
    if sys.platform.startswith("linux"):
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        sys.exit("the process that asked for this rebuild has gone")


def _main(path: Path, parent: int) -> None:
    from memory.index import open_collection

    _die_with(parent)
    got = np.load(io.BytesIO(sys.stdin.buffer.read()))
    ids, vectors, versions = [str(i) for i in got["ids"]], got["vectors"], [str(v) for v in got["versions"]]
    _client, col = open_collection(path)
    for i in range(0, len(ids), BATCH):
        col.upsert(ids=ids[i : i + BATCH], embeddings=vectors[i : i + BATCH],
                   metadatas=[{"updated_at": v} for v in versions[i : i + BATCH]])


if __name__ == "__main__":
    _main(Path(sys.argv[1]), int(sys.argv[2]))
