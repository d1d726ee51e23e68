"""Reading a file the user names on the command line (`--file`): regular files only, size capped first.

A FIFO blocks a plain read forever and /dev/zero never ends; so the file is
opened without blocking, checked with fstat on the descriptor itself, and
its size is compared with the cap before a byte is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from mol_local.errors import MolError

MAX_INPUT_BYTES = 64 << 20


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_input_file(path: Path, error: type[MolError], *, limit: int = MAX_INPUT_BYTES, fix: str = "pass a regular file") -> bytes:
    """The bytes of `path`, or `error` naming why not (missing, not a regular file, over `limit`)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"Cannot read {path} ({exc.strerror}) — {fix}") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{path} is {_kind(st.st_mode)} — {fix}")
        if st.st_size > limit:
            raise error(f"{path} is {st.st_size:,} bytes, over the {limit:,} limit — split it into smaller files")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:
                raise error(f"{path} grew past {limit:,} bytes while it was read — {fix}")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
