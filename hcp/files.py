"""Reading the files HCP itself owns (documents, versions, index) and checking the paths it names.

A path given to HCP can be anything: a FIFO (reading blocks forever), a
device (/dev/zero reads until memory runs out), a folder, a 50 MB file
(validation took 169 s). So a file is opened without blocking, checked with
fstat on the very descriptor that is read (no check-then-open race), refused
unless it is a regular file, and read only up to a size cap checked before
the first byte. `check_ref` is the document-level rule for every path an HCP
names, applied on load and therefore on every `mol hcp set`: no NUL, no
`builtin:` name that is not a plain name, no relative path that climbs out
of the HCP's folder.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePath

from hcp.errors import HCPError, HCPSyntaxError

MAX_HCP_BYTES = 1 << 20  # an HCP is a few KB; 1 MB leaves room for many skills and comments
MAX_REF_CHARS = 4096
BUILTIN_NAME = re.compile(r"builtin:[a-z0-9][a-z0-9._-]{0,63}")


def file_kind(mode: int) -> str:
    """What a non-regular file is, for messages."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_limited(path: Path, *, limit: int = MAX_HCP_BYTES, what: str = "HCP file", fix: str = "pass a regular .toml file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; HCPError naming the problem otherwise."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise HCPError(f"{what} not found: {path} — {fix}") from exc
    except IsADirectoryError as exc:  # Windows opens no folders
        raise HCPError(f"{path} is a folder, not an {what} — {fix}") from exc
    except PermissionError as exc:
        raise HCPError(f"{path} cannot be read (permission denied) — {fix}") from exc
    except OSError as exc:
        raise HCPError(f"{path} cannot be opened ({exc.strerror}) — {fix}") from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        if not stat.S_ISREG(st.st_mode):
            raise HCPError(f"{path} is {file_kind(st.st_mode)}, not an {what} — {fix}")
        raise HCPError(f"{path} is {st.st_size:,} bytes; an {what} may be at most {limit:,} — {fix}")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise HCPError(f"{path} grew past {limit:,} bytes while it was read — {fix}")
    return data


def read_text(path: Path, *, what: str = "HCP file", fix: str = "pass a regular .toml file") -> str:
    """read_limited as UTF-8 text."""
    data = read_limited(path, what=what, fix=fix)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HCPSyntaxError(f"{path} is not UTF-8 text — save it as UTF-8") from exc


def check_ref(ref: str) -> str | None:
    """Why a path an HCP names is refused on its face, or None (the file itself is checked where it is used)."""
    if "\0" in ref:
        return "holds a NUL character"
    if len(ref) > MAX_REF_CHARS:
        return f"is longer than {MAX_REF_CHARS} characters"
    if ref.startswith("builtin:"):
        return None if BUILTIN_NAME.fullmatch(ref) and ".." not in ref else "is not a built-in name (builtin: then letters, digits, . _ -)"
    path = PurePath(ref)
    if not path.is_absolute() and not ref.startswith("~") and ".." in path.parts:
        return "climbs out of the HCP's folder with `..` — give an absolute path or one starting with ~"
    return None
