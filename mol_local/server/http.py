"""`mol serve`'s HTTP edge (stdlib ThreadingHTTPServer, HTTP/1.1, chunked SSE).

Why the stdlib: the turn loop is blocking and generation serialises at the
engine anyway, so a thread per connection is the honest model; it needs no
new dependency, and it gives direct control of the three things that matter
here: request limits (Content-Length checked before a byte of the body is
read), incremental SSE (each chunk is flushed as its own HTTP chunk), and a
drain on shutdown (handler threads are joined; idle keep-alive sockets are
closed; streams still running after the grace period are cancelled and their
turns rolled back).

This module is the edge: our errors become HTTP status + OpenAI error JSON here.
"""

from __future__ import annotations

import hmac
import json
import logging
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from collections.abc import Callable
from typing import Any

from hcp.errors import HCPError
from memory.errors import MemoryStoreError
from mol_local.errors import (
    ContextOverflow,
    EmptyMessage,
    MolError,
    RemoteError,
    RemoteUnavailable,
    TurnCancelled,
)
from mol_local.server.openai import (
    ChatRequest,
    Completion,
    ContentGate,
    HTTPProblem,
    chunk,
    completion_body,
    finish_of,
    new_id,
    parse_request,
    split_tool_calls,
    usage,
)
from mol_local.server.service import ServeService

log = logging.getLogger("mol.serve")
MAX_BODY = 1 << 20  # 1 MiB: a long conversation in text, far below anything that could hurt


def problem_for(exc: Exception) -> HTTPProblem:
    """Our user-facing errors as HTTP answers (the one place they are converted)."""
    if isinstance(exc, HTTPProblem):
        return exc
    if isinstance(exc, ContextOverflow):
        return HTTPProblem(400, str(exc), code="context_length_exceeded")
    if isinstance(exc, TurnCancelled):
        return HTTPProblem(503, "The request was cancelled (the server is shutting down) — nothing was saved; send it again", kind="server_error")
    if isinstance(exc, EmptyMessage):
        return HTTPProblem(400, str(exc))
    if isinstance(exc, RemoteUnavailable):
        return HTTPProblem(503, str(exc), kind="server_error", code="upstream_unavailable")
    if isinstance(exc, RemoteError):
        return HTTPProblem(502, str(exc), kind="server_error", code="upstream_error")
    if isinstance(exc, (MolError, HCPError, MemoryStoreError)):
        return HTTPProblem(500, str(exc), kind="server_error")
    return HTTPProblem(500, "Internal error — see the server's log", kind="server_error")


class MolHTTPServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close() joins handler threads: in-flight streams drain
    block_on_close = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], service: ServeService, token: str, *, max_body: int = MAX_BODY, max_inflight: int = 32) -> None:
        self.service = service
        self.token = token.encode("utf-8")
        self.max_body = max_body
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
        with self._state:
            self._conns[request] = False
        super().process_request(request, client_address)

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


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mol-serve"
    sys_version = ""
    timeout = 300  # an idle keep-alive connection is dropped after this
    server: MolHTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # request line and status only: no headers, no bodies
        log.info("%s %s", self.address_string(), format % args)

    # -- plumbing ------------------------------------------------------------
    def _send_json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.response_started = True
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if self.server.draining.is_set():
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def _problem(self, p: HTTPProblem) -> None:
        extra = {"WWW-Authenticate": 'Bearer realm="mol"'} if p.status == 401 else {}
        if p.status in (413, 411, 415) or p.status >= 500:
            self.close_connection = True  # the unread body must not be parsed as the next request
            extra["Connection"] = "close"
        if p.status == 503:
            extra["Retry-After"] = "1"
        self._send_json(p.status, p.body(), extra)

    def _authorised(self) -> None:
        given = self.headers.get("Authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode("utf-8"), self.server.token):
            raise HTTPProblem(401, "Missing or wrong bearer token — send `Authorization: Bearer <token>` (see `mol serve --show-token`)", kind="authentication_error", code="invalid_api_key")

    def _body(self) -> Any:
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HTTPProblem(415, f"Content-Type must be application/json, got {ctype or 'none'!r}")
        if self.headers.get("Transfer-Encoding"):
            raise HTTPProblem(411, "Send the body with a Content-Length (chunked uploads are not accepted)")
        raw = self.headers.get("Content-Length")
        if raw is None or not raw.isdigit():
            raise HTTPProblem(411, "Content-Length is required")
        length = int(raw)
        if length > self.server.max_body:
            raise HTTPProblem(413, f"The body is {length} bytes; the limit is {self.server.max_body} — send a shorter conversation")
        data = self.rfile.read(length)
        try:
            return json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise HTTPProblem(400, f"The body is not valid JSON ({exc}) — send a JSON object") from None

    def _guarded(self, fn: Callable[[], None]) -> None:
        self.server.mark(self.connection, True)
        self.response_started = False
        try:
            try:
                if self.server.draining.is_set():
                    raise HTTPProblem(503, "The server is shutting down — retry on another instance", kind="server_error")
                fn()
            except HTTPProblem as p:
                self._problem(p)
            except Exception:  # the HTTP edge: a bug answers 500 (if it still can) and the server keeps serving
                log.exception("unhandled error in %s %s", self.command, self.path)
                self.close_connection = True
                if not self.response_started:
                    self._problem(problem_for(RuntimeError()))
        except OSError:  # the client went away (broken pipe, reset, timeout): nothing to answer
            self.close_connection = True
        finally:
            self.server.mark(self.connection, False)

    # -- routes --------------------------------------------------------------
    def do_GET(self) -> None:
        self._guarded(self._get)

    def do_POST(self) -> None:
        self._guarded(self._post)

    def _get(self) -> None:
        path = self.path.split("?")[0]
        if path == "/health":
            self._send_json(200, {"status": "ok"})
            return
        self._authorised()
        if path == "/v1/models":
            created = int(time.time())
            data = [{"id": m, "object": "model", "created": created, "owned_by": "mol-local"} for m in self.server.service.model_names()]
            self._send_json(200, {"object": "list", "data": data})
            return
        raise HTTPProblem(404, f"No route {path} — use /health, /v1/models or /v1/chat/completions")

    def _post(self) -> None:
        path = self.path.split("?")[0]
        if path != "/v1/chat/completions":
            raise HTTPProblem(404, f"No route {path} — POST /v1/chat/completions")
        self._authorised()
        req = parse_request(self._body(), self.headers.get("X-Mol-Conversation"))
        self.server.service.check_model(req.model)
        if not self.server.admission.acquire(blocking=False):
            raise HTTPProblem(503, "Too many requests in flight — retry shortly", kind="server_error")
        cancel = threading.Event()
        self.server.track(cancel, True)
        try:
            (self._stream if req.stream else self._whole)(req, cancel)
        finally:
            self.server.track(cancel, False)
            self.server.admission.release()

    def _whole(self, req: ChatRequest, cancel: threading.Event) -> None:
        try:
            done = self.server.service.complete(req, cancel, lambda _piece: None)
        except (MolError, HCPError, MemoryStoreError) as exc:
            raise problem_for(exc) from exc
        headers = {"X-Mol-Conversation": done.extra["conversation_id"]} if "conversation_id" in done.extra else {}
        self._send_json(200, completion_body(new_id(), req.model, done), headers)

    def _stream(self, req: ChatRequest, cancel: threading.Event) -> None:
        """SSE over chunked HTTP/1.1; the headers go out only when the first token (or the answer) is ready."""
        cid, gate = new_id(), ContentGate()
        started = False

        def send(obj: Any) -> None:
            nonlocal started
            if not started:
                started = self.response_started = True
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Transfer-Encoding", "chunked")
                if req.conversation_id:
                    self.send_header("X-Mol-Conversation", req.conversation_id)
                self.end_headers()
                self._chunk(f"data: {json.dumps(chunk(cid, req.model, {'role': 'assistant', 'content': ''}))}\n\n")
            payload = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)
            self._chunk(f"data: {payload}\n\n")

        def on_token(piece: str) -> None:
            out = gate.feed(piece)
            if out and not cancel.is_set():
                try:
                    send(chunk(cid, req.model, {"content": out}))
                except OSError:  # the client went away: stop generating, the turn rolls back
                    cancel.set()

        try:
            done = self.server.service.complete(req, cancel, on_token)
        except (MolError, HCPError, MemoryStoreError) as exc:
            p = problem_for(exc)
            if not started:
                raise p from exc
            self._end_with(send, p.body())
            return
        if cancel.is_set():
            self.close_connection = True
            return
        try:
            self._finish(send, cid, req, done, gate)
        except OSError:
            self.close_connection = True

    def _finish(self, send: Callable[[Any], None], cid: str, req: ChatRequest, done: Completion, gate: ContentGate) -> None:
        content, calls = split_tool_calls(done.text)
        rest = gate.rest(done.text)
        if rest:
            send(chunk(cid, req.model, {"content": rest}))
        if calls:
            send(chunk(cid, req.model, {"tool_calls": [{"index": i, **c} for i, c in enumerate(calls)]}))
        extra = {"mol": done.extra} if done.extra else {}
        send(chunk(cid, req.model, {}, finish_of(done, calls), **extra))
        if req.include_usage:
            send({**chunk(cid, req.model, {}), "choices": [], "usage": usage(done)})
        self._end_with(send, "[DONE]")

    def _end_with(self, send: Callable[[Any], None], last: Any) -> None:
        try:
            send(last)
            self._chunk("")
        except OSError:
            self.close_connection = True

    def _chunk(self, text: str) -> None:
        data = text.encode("utf-8")
        self.wfile.write(f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n")
        self.wfile.flush()
