"""`mol serve`'s HTTP edge: the request handler (stdlib http.server, HTTP/1.1, chunked SSE).

Why the stdlib: the turn loop is blocking and generation serialises at the
engine anyway, so a thread per connection is the honest model; it needs no
new dependency, and it gives direct control of what matters here: request
limits (Content-Length checked before a byte of the body is read, exactly one
of it), whole-request read deadlines and Host/Origin checks (server/guard.py),
an early error drains or closes (the unread body is never parsed as the next
request), incremental SSE (each chunk is flushed as its own HTTP chunk), and a
client that leaves cancels its generation. The listening socket, its
connection cap and the drain on shutdown are in server/listener.py.

This module is the edge: our errors become HTTP status + OpenAI error JSON here.
"""

from __future__ import annotations

import hmac
import io
import json
import logging
import threading
import time
from http.server import BaseHTTPRequestHandler
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from mol_local.errors import (
    ContextOverflow,
    EmptyMessage,
    RemoteError,
    RemoteUnavailable,
    TurnCancelled,
    user_errors,
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
from mol_local.server.guard import DeadlineReader, content_length, watch_disconnect
from mol_local.textclean import loads_limited

USER_ERRORS = user_errors()  # answered as JSON errors; anything else is a 500 with no detail

if TYPE_CHECKING:
    from mol_local.server.listener import MolHTTPServer

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
    if isinstance(exc, USER_ERRORS):
        return HTTPProblem(500, str(exc), kind="server_error")
    return HTTPProblem(500, "Internal error — see the server's log", kind="server_error")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mol-serve"
    sys_version = ""
    server: MolHTTPServer
    reader: DeadlineReader

    def log_message(self, format: str, *args: Any) -> None:  # request line and status only: no headers, no bodies
        log.info("%s %s", self.address_string(), format % args)

    # -- plumbing ------------------------------------------------------------
    def setup(self) -> None:
        """rfile reads through a DeadlineReader: whole-request deadlines, not a per-recv timeout."""
        super().setup()
        self.rfile.close()
        self.reader = DeadlineReader(self.connection, self.server.limits)
        self.rfile = io.BufferedReader(self.reader, 1 << 16)
        self.connection.settimeout(self.server.limits.write_s)

    def handle_one_request(self) -> None:
        self.reader.between_requests()
        self.body_read = False
        super().handle_one_request()

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
        if p.close or p.status in (408, 413, 411, 415) or p.status >= 500:
            self.close_connection = True
        elif not self.body_read:
            self._drain()  # the unread body must not be parsed as the next request
        if self.close_connection:
            extra["Connection"] = "close"
        if p.status == 503:
            extra["Retry-After"] = "1"
        self._send_json(p.status, p.body(), extra)

    def _drain(self) -> None:
        """Read and drop the body of a request answered early (401, 404, 400); close when it cannot be."""
        length = content_length(self.headers.get_all("Content-Length") or [])
        if self.headers.get("Transfer-Encoding") or isinstance(length, str) or (length or 0) > self.server.max_body:
            self.close_connection = True
            return
        if length:
            try:
                self.reader.body_starts()
                if len(self.rfile.read(length)) < length:
                    self.close_connection = True
            except OSError:
                self.close_connection = True
        self.body_read = True

    def _checked_peer(self) -> None:
        """Host and Origin before anything else (DNS rebinding: a page of another site aimed at 127.0.0.1)."""
        for problem, code in ((self.server.hosts.host_problem(self.headers.get("Host")), "host_not_allowed"),
                              (self.server.hosts.origin_problem(self.headers.get("Origin")), "origin_not_allowed")):
            if problem:
                raise HTTPProblem(403, problem, kind="permission_error", code=code, close=True)

    def _authorised(self) -> None:
        given = self.headers.get("Authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode("utf-8"), self.server.token):
            raise HTTPProblem(401, "Missing or wrong bearer token — send `Authorization: Bearer <token>` (see `mol serve --show-token`)", kind="authentication_error", code="invalid_api_key")

    def _body(self) -> Any:
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HTTPProblem(415, f"Content-Type must be application/json, got {ctype or 'none'!r}")
        length = content_length(self.headers.get_all("Content-Length") or [])
        if isinstance(length, str):
            raise HTTPProblem(400, length, close=True)
        if self.headers.get("Transfer-Encoding"):
            if length is not None:
                raise HTTPProblem(400, "The request has both Transfer-Encoding and Content-Length — send only Content-Length", close=True)
            raise HTTPProblem(411, "Send the body with a Content-Length (chunked uploads are not accepted)")
        if length is None:
            raise HTTPProblem(411, "Content-Length is required")
        if length > self.server.max_body:
            raise HTTPProblem(413, f"The body is {length} bytes; the limit is {self.server.max_body} — send a shorter conversation")
        self.reader.body_starts()
        try:
            data = self.rfile.read(length)
        except TimeoutError:
            raise HTTPProblem(408, f"The body did not arrive within {self.server.limits.body_s:g} s — send it at once", close=True) from None
        if len(data) < length:
            raise ConnectionError("the client closed the connection inside the body")
        self.body_read = True
        try:
            return loads_limited(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise HTTPProblem(400, f"The body is not valid JSON ({exc}) — send a JSON object") from None

    def _guarded(self, fn: Callable[[], None]) -> None:
        self.server.mark(self.connection, True)
        self.response_started = False
        try:
            try:
                self._checked_peer()
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
        created = int(time.time())
        if path == "/v1/models":
            data = [{"id": m, "object": "model", "created": created, "owned_by": "mol-local"} for m in self.server.service.model_names()]
            self._send_json(200, {"object": "list", "data": data})
            return
        if path.startswith("/v1/models/"):
            name = unquote(path.removeprefix("/v1/models/"))
            self.server.service.check_model(name)
            self._send_json(200, {"id": name, "object": "model", "created": created, "owned_by": "mol-local"})
            return
        raise HTTPProblem(404, f"No route {path} — use /health, /v1/models, /v1/models/ID or /v1/chat/completions")

    def _post(self) -> None:
        path = self.path.split("?")[0]
        if path != "/v1/chat/completions":
            raise HTTPProblem(404, f"No route {path} — POST /v1/chat/completions")
        self._authorised()
        req = parse_request(self._body(), self.headers.get("X-Mol-Conversation"))
        self.server.service.check_model(req.model)
        if not self.server.admission.acquire(blocking=False):
            raise HTTPProblem(503, "Too many requests in flight — retry shortly", kind="server_error")
        cancel, done = threading.Event(), threading.Event()
        self.server.track(cancel, True)
        watch_disconnect(self.connection, cancel, done)  # a client that leaves cancels its generation (nothing is stored)
        try:
            (self._stream if req.stream else self._whole)(req, cancel)
        finally:
            done.set()
            self.server.track(cancel, False)
            self.server.admission.release()

    def _whole(self, req: ChatRequest, cancel: threading.Event) -> None:
        try:
            done = self.server.service.complete(req, cancel, lambda _piece: None)
        except USER_ERRORS as exc:
            raise problem_for(exc) from exc
        if cancel.is_set():  # the client left (or the drain cancelled it): nobody to answer
            self.close_connection = True
            return
        headers = {"X-Mol-Conversation": done.extra["conversation_id"]} if "conversation_id" in done.extra else {}
        self._send_json(200, completion_body(new_id(), req, done), headers)

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
                self._chunk(f"data: {json.dumps(chunk(cid, req, {'role': 'assistant', 'content': ''}))}\n\n")
            payload = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)
            self._chunk(f"data: {payload}\n\n")

        def on_token(piece: str) -> None:
            out = gate.feed(piece)
            if out and not cancel.is_set():
                try:
                    send(chunk(cid, req, {"content": out}))
                except OSError:  # the client went away: stop generating, the turn rolls back
                    cancel.set()

        try:
            done = self.server.service.complete(req, cancel, on_token)
        except USER_ERRORS as exc:
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
        content, calls = split_tool_calls(done.text, req.options.parallel_tool_calls)
        rest = gate.rest(done.text)
        if rest:
            send(chunk(cid, req, {"content": rest}))
        if calls:
            send(chunk(cid, req, {"tool_calls": [{"index": i, **c} for i, c in enumerate(calls)]}))
        extra = {"mol": done.extra} if done.extra else {}
        send(chunk(cid, req, {}, finish_of(done, calls), **extra))
        if req.include_usage:
            send({**chunk(cid, req, {}), "choices": [], "usage": usage(done)})
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
