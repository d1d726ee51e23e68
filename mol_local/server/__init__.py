"""`mol serve`: our turn loop behind an OpenAI-compatible HTTP API (see server/http.py and server/service.py)."""

from __future__ import annotations

import errno
import ipaddress
import socket
import threading

from mol_local.errors import ServeError
from mol_local.runtime import Runtime
from mol_local.server.http import MAX_BODY
from mol_local.server.guard import Limits
from mol_local.server.listener import MolHTTPServer
from mol_local.server.service import ServeService

__all__ = ["Limits", "MolHTTPServer", "ServeService", "is_loopback", "make_server", "serve_in_thread"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(
    runtime: Runtime, token: str, *, host: str = "127.0.0.1", port: int = 8765, max_body: int = MAX_BODY,
    limits: Limits | None = None, allow_hosts: tuple[str, ...] = (),
) -> MolHTTPServer:
    """The server, not yet serving. `allow_hosts`: Host names answered besides loopback ones and `host` itself."""
    if not token:
        raise ServeError("mol serve needs a bearer token — set MOL_SERVE_TOKEN or let it generate one into the keyring")
    try:
        return MolHTTPServer((host, port), ServeService(runtime), token, max_body=max_body, limits=limits, allow_hosts=allow_hosts)
    except socket.gaierror as exc:
        raise ServeError(f"Cannot resolve --host {host!r} ({exc.strerror}) — pass an IP address such as 127.0.0.1") from exc
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"Port {port} on {host} is already in use — pick another with --port") from exc
        raise ServeError(f"Cannot listen on {host}:{port} ({exc.strerror}) — pick another --host/--port") from exc


def serve_in_thread(server: MolHTTPServer) -> threading.Thread:
    """Run `server` on a background thread (tests, benchmarks); stop it with `server.drain()`."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="mol-serve", daemon=True)
    thread.start()
    return thread
