"""What a workspace counts against its quota (stdlib only: the sandbox's supervisor and mol both use it).

Every path is charged on its own (a hard link costs what a copy would) and a
file costs the larger of its length and its allocated blocks, so a sparse
file is charged its full length: the quota is on bytes, whatever the file
system does with them. Symlinks are never followed.
"""

from __future__ import annotations

import os
import stat


def charge(st: os.stat_result) -> int:
    """Bytes one entry counts against the quota."""
    allocated = st.st_blocks * 512
    return allocated if stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode) else max(st.st_size, allocated)


def walk(root: str) -> tuple[dict[str, int], list[str]]:
    """({path: charge} for everything under `root`, every folder under it including `root`)."""
    charges: dict[str, int] = {}
    folders, stack = [], [root]
    while stack:
        folder = stack.pop()
        folders.append(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            charges[entry.path] = charge(st)
            if stat.S_ISDIR(st.st_mode):
                stack.append(entry.path)
    return charges, folders


def disk_usage(root: str) -> int:
    """Bytes the tree under `root` counts against its quota."""
    return sum(walk(root)[0].values())
