"""Which `mol serve` processes run for this MOL_HOME, and where their token comes from (never the token).

A running server writes `$MOL_HOME/serve/<pid>.json` = {pid, host, port,
token_source} and removes it on exit; a file whose pid is gone is stale and
dropped when read. `mol serve --show-token` uses it to print the token the
running server actually accepts: it tries the candidates it can see (this
shell's MOL_SERVE_TOKEN, the keyring's) against the live server over
loopback, and when none is accepted says where that server's token is.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import httpx

from mol_local.paths import mol_home

SOURCES = ("env", "keyring", "new", "ephemeral")


def _folder() -> Path:
    return mol_home() / "serve"


def publish(host: str, port: int, token_source: str) -> Path:
    """Record this process as a running server (mode 0600, written atomically)."""
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{os.getpid()}.json"
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"pid": os.getpid(), "host": host, "port": port, "token_source": token_source}, fh)
    os.replace(tmp, path)
    return path


def withdraw(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def running() -> list[dict]:
    """The servers of this MOL_HOME that are still alive (stale records are removed)."""
    out = []
    folder = _folder()
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            row = json.loads(path.read_text(encoding="utf-8"))
            pid, port = int(row["pid"]), int(row["port"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not _alive(pid):
            withdraw(path)
            continue
        out.append({**row, "pid": pid, "port": port})
    return out


def accepts(server: dict, token: str) -> bool:
    """Does the running `server` take `token`? (GET /v1/models over loopback; False if it cannot be asked.)"""
    host = "127.0.0.1" if server.get("host") in ("0.0.0.0", "", None) else str(server["host"])
    host = "::1" if host == "::" else host
    url = f"http://{'[' + host + ']' if ':' in host else host}:{server['port']}/v1/models"
    try:
        return httpx.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False
