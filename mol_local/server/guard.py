"""What `mol serve` checks about a connection before it trusts a request on it.

- Host and Origin (DNS rebinding): a page on evil.example that re-points its
  name at 127.0.0.1 reaches a loopback server with `Host: evil.example`; only
  loopback names and the hosts the user configured are answered.
- Read deadlines (slowloris): the socket timeout alone is per `recv`, so a
  client sending one byte every few minutes held a thread for ever. Here the
  request line and headers must arrive within `header_s` of their first byte,
  and the body within `body_s` of the headers; between requests a keep-alive
  connection may idle `idle_s`.
- Content-Length: exactly one, plain digits; anything else is refused (a
  duplicate was half-used before, the classic request-smuggling shape).
- A client that goes away while its answer is generated: the socket is
  polled, and generation is cancelled (no turn is stored for it).
"""

from __future__ import annotations

import io
import ipaddress
import re
import select
import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
_LENGTH = re.compile(r"[0-9]{1,12}")


@dataclass(frozen=True)
class Limits:
    """Per-connection limits (seconds, counts); tests pass small ones."""

    header_s: float = 10.0
    body_s: float = 30.0
    idle_s: float = 60.0
    write_s: float = 60.0
    max_connections: int = 64


def is_loopback_name(host: str) -> bool:
    host = host.strip("[]").lower().rstrip(".")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_of(header: str) -> str | None:
    """The name in a Host header ("[::1]:8765" -> "::1", "Example.COM." -> "example.com"), None if malformed."""
    header = header.strip()
    if not header or any(c in header for c in "/@\\ \t"):
        return None
    if header.startswith("["):
        end = header.find("]")
        if end < 0 or (header[end + 1 :] and not re.fullmatch(r":[0-9]{1,5}", header[end + 1 :])):
            return None
        return header[1:end].lower()
    name, _, port = header.partition(":")
    if port and not port.isdigit():
        return None
    return name.lower().rstrip(".") or None


class HostPolicy:
    """Loopback names always; any other name only if configured (`mol serve --allow-host`, or the --host bound)."""

    def __init__(self, bound_host: str, extra: tuple[str, ...] = ()) -> None:
        names = {h.strip("[]").lower().rstrip(".") for h in extra if h}
        if bound_host not in ("", "0.0.0.0", "::"):
            names.add(bound_host.strip("[]").lower())
        self.names = frozenset(names)

    def allows(self, name: str | None) -> bool:
        return name is not None and (is_loopback_name(name) or name in self.names)

    def host_problem(self, header: str | None) -> str | None:
        if header is None:
            return "The request has no Host header — send one (HTTP/1.1 requires it)"
        if not self.allows(host_of(header)):
            return (f"Host {header[:80]!r} is not this server's name (DNS rebinding is refused) — call it as 127.0.0.1 or "
                    f"localhost, or start it with `mol serve --allow-host NAME`")
        return None

    def origin_problem(self, origin: str | None) -> str | None:
        if origin is None:
            return None
        parts = urlsplit(origin.strip())
        if parts.scheme not in ("http", "https") or not self.allows(parts.hostname):
            return f"Origin {origin[:80]!r} may not call this server (browser pages of other sites are refused)"
        return None


def content_length(values: list[str]) -> int | None | str:
    """The one Content-Length: its value, None when absent, or a problem text when duplicated or not plain digits."""
    if not values:
        return None
    if len(values) > 1:
        return "The request has more than one Content-Length — send exactly one"
    if not _LENGTH.fullmatch(values[0]):
        return f"Content-Length {values[0][:40]!r} is not a plain number of bytes"
    return int(values[0])


class DeadlineReader(io.RawIOBase):
    """The socket as the handler's rfile, with a deadline instead of a per-recv timeout.

    `deadline` None means "between requests": wait up to `idle_s` for a first
    byte, which starts the header clock. The handler moves the deadline for
    the body. After each recv the socket timeout goes back to `write_s`, so
    responses are not cut by what was left of a read deadline.
    """

    def __init__(self, sock: socket.socket, limits: Limits) -> None:
        super().__init__()
        self.sock = sock
        self.limits = limits
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def between_requests(self) -> None:
        self.deadline = None

    def body_starts(self) -> None:
        self.deadline = time.monotonic() + self.limits.body_s

    def readinto(self, buffer) -> int:  # type: ignore[override]
        if self.deadline is None:
            timeout = self.limits.idle_s
        else:
            timeout = self.deadline - time.monotonic()
            if timeout <= 0:
                raise TimeoutError("the request took too long to arrive")
        self.sock.settimeout(timeout)
        try:
            n = self.sock.recv_into(buffer)
        finally:
            self.sock.settimeout(self.limits.write_s)
        if n and self.deadline is None:
            self.deadline = time.monotonic() + self.limits.header_s
        return n


def watch_disconnect(sock: socket.socket, cancel: threading.Event, done: threading.Event, interval_s: float = 0.1) -> threading.Thread:
    """Set `cancel` if the peer closes `sock` before `done` (bytes of a pipelined request are left unread)."""

    def watch() -> None:
        while not done.wait(interval_s):
            try:
                readable, _, _ = select.select([sock], [], [], 0)
                if readable and sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                    cancel.set()
                    return
            except BlockingIOError:
                continue
            except (OSError, ValueError):  # reset, or closed under us
                cancel.set()
                return

    thread = threading.Thread(target=watch, name="mol-serve-watch", daemon=True)
    thread.start()
    return thread
