"""One consolidation run at a time: a lock file holding the owner's pid and process start time.

A lock whose pid is gone, or whose pid now belongs to a different process
(start time differs: the pid was reused after a reboot or a kill -9), is
stale and is taken over.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import psutil

from trainer.errors import LockHeld


def _start_time(pid: int) -> float | None:
    try:
        return psutil.Process(pid).create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


def _alive(owner: dict) -> bool:
    pid, started = owner.get("pid"), owner.get("started")
    if not isinstance(pid, int) or not isinstance(started, (int, float)):
        return False
    now = _start_time(pid)
    return now is not None and abs(now - started) < 1.0


class RunLock:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.stale_recovered: dict | None = None

    def owner(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def acquire(self) -> RunLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        me = {"pid": os.getpid(), "started": _start_time(os.getpid()), "host": socket.gethostname()}
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            except FileExistsError:
                owner = self.owner()
                if owner is None:
                    continue
                if _alive(owner):
                    raise LockHeld(
                        f"another training run (pid {owner['pid']}) is in progress — wait for it, or check `mol train --now --dry-run` later"
                    ) from None
                self.stale_recovered = owner
                self.path.unlink(missing_ok=True)
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(me, fh)
            return self
        raise LockHeld(f"could not take the training lock {self.path} — remove it if no `mol train` is running")

    def release(self) -> None:
        owner = self.owner()
        if owner and owner.get("pid") == os.getpid():
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
