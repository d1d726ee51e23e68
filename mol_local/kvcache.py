"""Saved KV: a slot's prefilled view on disk, so reopening a conversation does not prefill it again.

When the app closes or switches away, every slot's KV sequence that holds a view
is written with llama.cpp's per-sequence state files under `$MOL_HOME/kv/`. When
a conversation is opened again, the prewarm asks for each slot's view: a file
whose key matches is loaded instead of prefilling (on 2 cores a 2,000-token view
takes ~10 s to prefill; loading it is a file read).

The key is a hash of everything the KV depends on: the base model file, the
slot's adapter stack (files and scales) and the exact tokens. A file for another
base, stack or history simply has another name, so it is never found; a file
that does not load, or loads other tokens than its name promised, is deleted and
the slot is prefilled as before: the cache is never trusted over a prefill.
Files are evicted least recently used first beyond `cap_bytes`; forgetting
anything removes the whole folder (mol_local/forget.py).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import llama_cpp

from mol_local.engine.base import Stack

if TYPE_CHECKING:
    from mol_local.engine.llamacpp import LlamaCppEngine

DEFAULT_CAP_BYTES = 2 << 30  # 2 GiB: a 2,000-token view of the embedded base is ~45 MB per slot
SUFFIX = ".kv"


def _file_id(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"


class SavedKV:
    def __init__(self, root: Path, *, cap_bytes: int = DEFAULT_CAP_BYTES) -> None:
        self.root = root
        self.cap_bytes = cap_bytes

    def key(self, base: Path, stack: Stack, tokens: Sequence[int]) -> str:
        h = hashlib.sha256(_file_id(str(base)).encode())
        for spec in stack:
            h.update(f"|{_file_id(spec.path)}*{spec.scale}".encode())
        h.update(b"|" + ",".join(map(str, tokens)).encode())
        return h.hexdigest()[:40]

    def _path(self, key: str) -> Path:
        return self.root / f"{key}{SUFFIX}"

    def save(self, engine: LlamaCppEngine, seq: str, base: Path, stack: Stack) -> int:
        """Write what `seq` holds (if anything, and not already saved); returns bytes written."""
        with engine._lock:
            state = engine._seqs[seq]
            tokens = list(state.tokens)
            if not tokens:
                return 0
            path = self._path(self.key(base, stack, tokens))
            if path.exists():
                os.utime(path)  # recently used
                return 0
            self.root.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            arr = (llama_cpp.llama_token * len(tokens))(*tokens)
            written = llama_cpp.llama_state_seq_save_file(engine.ctx.ctx, str(tmp).encode(), state.id, arr, len(tokens))
        if not written:
            tmp.unlink(missing_ok=True)
            return 0
        os.replace(tmp, path)
        self.evict()
        return int(written)

    def restore(self, engine: LlamaCppEngine, seq: str, base: Path, stack: Stack, tokens: Sequence[int]) -> int:
        """Load `seq`'s KV for exactly `tokens` under `stack` if a file has it; returns tokens restored (0: prefill)."""
        path = self._path(self.key(base, stack, tokens))
        if not path.is_file():
            return 0
        with engine._lock:
            state = engine._seqs[seq]
            stack_key = engine._apply(stack)
            engine._truncate(state, 0)
            out = (llama_cpp.llama_token * (len(tokens) + 1))()
            n = ctypes.c_size_t(0)
            size = llama_cpp.llama_state_seq_load_file(engine.ctx.ctx, str(path).encode(), state.id, out, len(tokens) + 1, ctypes.byref(n))
            loaded = list(out[: n.value])
            if not size or loaded != list(tokens):
                llama_cpp.llama_memory_seq_rm(engine.ctx.memory, state.id, 0, -1)
                path.unlink(missing_ok=True)  # damaged, or not what its name says: prefill instead
                return 0
            state.tokens, state.stack_key = loaded, stack_key
            engine._clock += 1
            state.last_used = engine._clock
        os.utime(path)
        return len(loaded)

    def evict(self) -> None:
        """Oldest-used files go until the folder is within the cap."""
        files = sorted(self.root.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
        total = sum(p.stat().st_size for p in files)
        while files and total > self.cap_bytes:
            victim = files.pop(0)
            total -= victim.stat().st_size
            victim.unlink(missing_ok=True)
