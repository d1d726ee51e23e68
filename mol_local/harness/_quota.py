"""The workspace quota, kept by the sandbox's supervisor while the worker runs (stdlib only; Linux).

The kernel has no byte quota an unprivileged process can set on a folder, so
this keeps one with two kernel limits and one watcher:

- RLIMIT_FSIZE of the worker (a per-file size limit the kernel enforces on
  every write, truncate and fallocate) is kept at what the quota leaves, so
  no single file can pass the quota, and once the workspace is full no file
  can grow at all (writes fail with EFBIG; deleting still works). The worker
  cannot raise it back: its seccomp filter allows prlimit64 only to read.
- inotify tells the supervisor about every write, create, delete and move in
  the workspace, so the limit follows usage within one event's latency
  rather than one polling period (several files written at once can pass the
  quota only by what they write before the supervisor has read the event).
- A full walk every RESCAN_S of running time corrects any drift (an event
  queue overflow, a folder moved, inotify unavailable: then the walk alone).
"""

from __future__ import annotations

import ctypes
import os
import resource
import select
import struct

from _disk import charge, walk  # a sibling file: the child puts this folder on sys.path

RESCAN_S = 2.0
IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x2, 0x4, 0x8, 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW, IN_ISDIR, IN_NONBLOCK, IN_CLOEXEC = 0x400, 0x800, 0x4000, 0x40000000, 0x800, 0x80000
WATCH = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of name


class Quota:
    """Usage of one workspace, and the worker's RLIMIT_FSIZE that follows it."""

    def __init__(self, workspace: str, quota_bytes: int, per_file_bytes: int, worker: int) -> None:
        self.root, self.quota, self.cap, self.worker = workspace, quota_bytes, per_file_bytes, worker
        self.charges: dict[str, int] = {}
        self.folders: dict[int, str] = {}  # inotify watch descriptor -> folder
        self.total = 0
        self.applied = -1
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        self.rescan()

    def rescan(self) -> None:
        """Walk the whole tree again and (re)watch every folder."""
        self.charges, folders = walk(self.root)
        self.total = sum(self.charges.values())
        if self.fd >= 0:
            self.folders = {}
            for folder in folders:
                wd = self.libc.inotify_add_watch(self.fd, os.fsencode(folder), WATCH)
                if wd >= 0:
                    self.folders[wd] = folder
        self.apply()

    def apply(self) -> None:
        soft = max(0, min(self.cap, self.quota - self.total))
        if soft != self.applied:
            try:
                resource.prlimit(self.worker, resource.RLIMIT_FSIZE, (soft, self.cap))
                self.applied = soft
            except (OSError, ValueError):
                pass  # the worker has not set its own limits yet, or is gone

    def wait(self, timeout: float, also: int) -> bool:
        """Handle events for up to `timeout` s, or until `also` (a pidfd) is readable. Returns whether it is."""
        fds = [fd for fd in (self.fd, also) if fd >= 0]
        ready, _, _ = select.select(fds, [], [], timeout)
        if self.fd in ready:
            self._read_events()
        return also in ready

    def _read_events(self) -> None:
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        touched: set[str] = set()
        offset = 0
        while offset + EVENT.size <= len(data):
            wd, mask, _cookie, size = EVENT.unpack_from(data, offset)
            name = data[offset + EVENT.size: offset + EVENT.size + size].rstrip(b"\0")
            offset += EVENT.size + size
            if mask & IN_Q_OVERFLOW or (mask & IN_ISDIR and mask & (IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE)) \
                    or mask & (IN_DELETE_SELF | IN_MOVE_SELF):
                self.rescan()  # folders moved or the queue overflowed: the paths we hold may be stale
                return
            folder = self.folders.get(wd)
            if folder is not None and name:
                path = os.path.join(folder, os.fsdecode(name))
                touched.add(path)
                if mask & IN_ISDIR and mask & IN_CREATE:
                    self._watch_new_folder(path)
        for path in touched:
            self._update(path)
        self.apply()

    def _watch_new_folder(self, folder: str) -> None:
        """A folder made by the worker: watch it and charge whatever it already holds (made before the watch)."""
        charges, folders = walk(folder)
        for path, cost in charges.items():
            self.total += cost - self.charges.get(path, 0)
            self.charges[path] = cost
        for sub in folders:
            wd = self.libc.inotify_add_watch(self.fd, os.fsencode(sub), WATCH)
            if wd >= 0:
                self.folders[wd] = sub

    def _update(self, path: str) -> None:
        try:
            cost = charge(os.stat(path, follow_symlinks=False))
        except OSError:
            cost = 0
        old = self.charges.pop(path, 0)
        if cost:
            self.charges[path] = cost
        self.total += cost - old
