"""`mol serve`'s listening socket: a ThreadingHTTPServer that caps connections and drains on shutdown.

One thread per connection (the turn loop is blocking and generation
serialises at the engine anyway), at most `limits.max_connections` of them:
past that the accepting thread answers 503 itself and closes, so a flood of
idle or slow connections cannot grow threads without bound. Drain: stop
accepting, let running requests finish (cancel them after a grace period, their
turns roll back), close idle keep-alive sockets, join the handler threads.
"""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
import time
from http.server import ThreadingHTTPServer

from mol_local.server.guard import HostPolicy, Limits
from mol_local.server.http import MAX_BODY, Handler
from mol_local.server.service import ServeService

log = logging.getLogger("mol.serve")
_BUSY_BODY = json.dumps({"error": {"message": "Too many connections — retry shortly", "type": "server_error", "code": None, "param": None}}).encode()
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n"
        b"Content-Length: " + str(len(_BUSY_BODY)).encode() + b"\r\n\r\n" + _BUSY_BODY)


class MolHTTPServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins handler threads: in-flight streams drain
    block_on_close = True
    allow_reuse_address = True
    request_queue_size = 128  # listen backlog: a burst of connects is accepted (and answered 503 past the cap), not SYN-dropped

    def __init__(
        self, address: tuple[str, int], service: ServeService, token: str, *, max_body: int = MAX_BODY, max_inflight: int = 32,
        limits: Limits | None = None, allow_hosts: tuple[str, ...] = (),
    ) -> None:
        self.service = service
        self.token = token.encode("utf-8")
        self.max_body = max_body
        self.limits = limits or Limits()
        self.hosts = HostPolicy(address[0], allow_hosts)
        self.draining = threading.Event()
        self.admission = threading.BoundedSemaphore(max_inflight)
        self._state = threading.Lock()
        self._conns: dict[socket.socket, bool] = {}  # socket -> busy with a request
        self._cancels: set[threading.Event] = set()
        super().__init__(address, Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def handle_error(self, request, client_address) -> None:
        """A client that resets or drops its connection between requests (outside `_guarded`) is
        routine, not a traceback on the server's stderr; anything else goes to the log."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        log.exception("error handling a request from %s", client_address[0] if client_address else "?")

    # -- bookkeeping for the drain ----------------------------------------------
    def process_request(self, request, client_address) -> None:
        """One thread per connection, up to `limits.max_connections`; past that a 503 from the accepting thread."""
        with self._state:
            full = len(self._conns) >= self.limits.max_connections
            if not full:
                self._conns[request] = False
        if full:
            try:
                request.setblocking(False)
                request.send(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def connections(self) -> int:
        with self._state:
            return len(self._conns)

    def shutdown_request(self, request) -> None:
        with self._state:
            self._conns.pop(request, None)
        super().shutdown_request(request)

    def mark(self, conn: socket.socket, busy: bool) -> None:
        with self._state:
            if conn in self._conns:
                self._conns[conn] = busy

    def track(self, cancel: threading.Event, on: bool) -> None:
        with self._state:
            (self._cancels.add if on else self._cancels.discard)(cancel)

    def inflight(self) -> int:
        with self._state:
            return sum(self._conns.values())

    def drain(self, grace_s: float = 30.0) -> None:
        """Stop accepting, let running requests finish (cancel them after `grace_s`), close idle connections."""
        self.draining.set()
        self.shutdown()
        deadline = time.monotonic() + grace_s
        while self.inflight() and time.monotonic() < deadline:
            time.sleep(0.02)
        with self._state:
            for cancel in self._cancels:
                cancel.set()
            for conn, busy in self._conns.items():
                if not busy:
                    try:
                        conn.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
        self.server_close()
