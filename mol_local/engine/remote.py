"""RemoteEngine: the Engine seam over an OpenAI-compatible HTTP server (streaming SSE).

Two modes (HCP `remote.mode`):
- `engine`: a vLLM/SGLang-style server with one model name per slot adapter;
  our loop still routes, builds own views and summarises. The server cannot
  be held to our GBNF grammar (`supports_grammar = False`), so the router
  parses free text and records a fallback when it is junk.
- `mol`: the server runs the whole MoL turn (`complete_turn`); we send the
  conversation and keep memory and consent here.

Connection errors, timeouts and 5xx are retried with exponential backoff as
long as no token has been delivered; once a stream has started, a break is
raised as RemoteUnavailable (the turn is rolled back, the fallback may answer).
Cancellation closes the HTTP stream.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

from mol_local.engine.base import Engine, GenerationRequest, GenerationResult, Message
from mol_local.errors import (
    RemoteAuthError,
    RemoteProtocolError,
    RemoteRequestError,
    RemoteUnavailable,
)

CHARS_PER_TOKEN = 3  # no remote tokenizer: a conservative estimate, so views are trimmed early rather than late


class _Retry(Exception):
    """A failure worth another attempt (connection error, timeout, 5xx) before any token arrived."""


def _error_text(body: bytes) -> str:
    """The server's own error message if it sent OpenAI error JSON, else a short description of the body."""
    try:
        obj = json.loads(body)
    except ValueError:
        text = body[:200].decode("utf-8", "replace").strip()
        kind = "an HTML page" if text.lower().startswith(("<!doctype", "<html")) else "a non-JSON body"
        return f"{kind} ({len(body)} bytes)"
    if isinstance(obj, dict) and isinstance(obj.get("error"), dict):
        return str(obj["error"].get("message", obj["error"]))[:300]
    return "JSON without an OpenAI `error` object"


def iter_sse(lines: Iterator[str]) -> Iterator[str]:
    """The `data:` payloads of a server-sent event stream (multi-line data joined, comments skipped)."""
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


class RemoteEngine(Engine):
    name = "remote"
    supports_grammar = False

    def __init__(
        self,
        base_url: str,
        *,
        models: Mapping[str, str],
        default_model: str,
        api_key: str | None,
        mode: str = "engine",
        context_tokens: int = 4096,
        connect_timeout_s: float = 5.0,
        read_timeout_s: float = 120.0,
        retries: int = 2,
        backoff_s: float = 0.25,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.host = urlsplit(self.base_url).netloc
        self.models = dict(models)
        self.default_model = default_model
        self.mode = mode
        self.context_tokens = context_tokens
        self.retries = retries
        self.backoff_s = backoff_s
        self.attempts = 0  # HTTP attempts made since creation (tests and `mol doctor` read this)
        headers = {"Accept": "text/event-stream, application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(read_timeout_s, connect=connect_timeout_s),
            follow_redirects=False,
        )

    def __repr__(self) -> str:  # the client's headers hold the key; never print them
        return f"RemoteEngine({self.base_url!r}, mode={self.mode!r})"

    # -- Engine -------------------------------------------------------------
    def model_for(self, seq: str) -> str:
        return self.models.get(seq) or self.default_model

    def count_tokens(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> int:
        return sum(len(m.get("content") or "") // CHARS_PER_TOKEN + 4 for m in messages) + 2

    def context_limit(self) -> int:
        return self.context_tokens

    def generate(self, request: GenerationRequest) -> GenerationResult:
        payload: dict[str, Any] = {
            "model": self.model_for(request.seq),
            "messages": [dict(m) for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "seed": request.seed,
        }
        if request.repeat_penalty != 1.0:
            payload["repetition_penalty"] = request.repeat_penalty  # vLLM/SGLang extension; sent only when used
        if request.ignore_eos:
            payload["ignore_eos"] = True
        if request.stop:
            payload["stop"] = list(request.stop)
        if request.temperature > 0 and request.top_p != 0.95:
            payload["top_p"] = request.top_p
        return self.stream_chat(payload, cancel=request.cancel, on_token=request.on_token)

    def complete_turn(
        self,
        messages: Sequence[Message],
        *,
        conversation_id: str,
        max_tokens: int,
        temperature: float,
        cancel: threading.Event | None = None,
        on_token=None,
    ) -> GenerationResult:
        """Mode `mol`: the remote runs the whole turn for this conversation."""
        payload = {
            "model": self.default_model,
            "messages": [dict(m) for m in messages],
            "max_tokens": max_tokens,
            "temperature": temperature,
            "metadata": {"conversation_id": conversation_id},
        }
        return self.stream_chat(payload, cancel=cancel, on_token=on_token, headers={"X-Mol-Conversation": conversation_id})

    # -- HTTP ---------------------------------------------------------------
    def stream_chat(
        self,
        payload: dict[str, Any],
        *,
        cancel: threading.Event | None = None,
        on_token=None,
        headers: Mapping[str, str] | None = None,
    ) -> GenerationResult:
        payload = {**payload, "stream": True, "stream_options": {"include_usage": True}}
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            if cancel is not None and cancel.is_set():
                return GenerationResult("", "cancelled", 0, 0, 0, {})
            try:
                return self._attempt(url, payload, cancel, on_token, headers or {})
            except _Retry as exc:
                last = str(exc)
        raise RemoteUnavailable(
            f"The remote at {self.host} is unavailable ({last}) after {self.retries + 1} attempts — "
            "check that the server runs and remote.base_url is right, or set remote.fallback"
        )

    def _attempt(self, url: str, payload: dict, cancel, on_token, headers: Mapping[str, str]) -> GenerationResult:
        self.attempts += 1
        t0 = time.perf_counter()
        state = {"delivered": False}
        try:
            with self._client.stream("POST", url, json=payload, headers=dict(headers)) as resp:
                self._check_status(resp)
                watcher = _CancelWatcher(cancel, resp)
                try:
                    return self._read(resp, t0, cancel, on_token, state)
                finally:
                    watcher.stop()
        except (httpx.TransportError, httpx.StreamError) as exc:
            if cancel is not None and cancel.is_set():
                return GenerationResult("", "cancelled", 0, 0, 0, {"total": (time.perf_counter() - t0) * 1000})
            if state["delivered"]:
                raise RemoteUnavailable(
                    f"The remote at {self.host} broke the stream mid-answer ({type(exc).__name__}) — "
                    "the turn was not saved; send it again or set remote.fallback"
                ) from exc
            raise _Retry(type(exc).__name__) from exc

    def _check_status(self, resp: httpx.Response) -> None:
        status = resp.status_code
        if status < 400:
            return
        body = resp.read()[:65536]
        detail = _error_text(body)
        if status >= 500:
            raise _Retry(f"HTTP {status}: {detail}")
        if status in (401, 403):
            raise RemoteAuthError(
                f"The remote at {self.host} refused our key (HTTP {status}) — run `mol remote login` or set MOL_REMOTE_API_KEY"
            )
        raise RemoteRequestError(f"The remote at {self.host} rejected the request (HTTP {status}: {detail}) — check remote.model and the slots' remote_model")

    def _read(self, resp: httpx.Response, t0: float, cancel, on_token, state: dict) -> GenerationResult:
        ctype = resp.headers.get("content-type", "")
        if "text/event-stream" not in ctype:
            return self._whole(resp, t0, on_token, state)
        pieces: list[str] = []
        finish = "length"
        usage: dict = {}
        t_first: float | None = None
        calls: dict[int, dict[str, str]] = {}  # tool-call deltas arrive in pieces, keyed by index
        for data in iter_sse(resp.iter_lines()):
            if data.strip() == "[DONE]":
                break
            chunk = self._json(data)
            if "error" in chunk:
                raise RemoteUnavailable(f"The remote at {self.host} failed mid-answer ({_error_text(data.encode())}) — the turn was not saved")
            usage = chunk.get("usage") or usage
            choices = chunk.get("choices")
            if not isinstance(choices, list):
                raise self._not_openai("a stream chunk without `choices`")
            for choice in choices:
                delta = choice.get("delta") if isinstance(choice, dict) else None
                if not isinstance(delta, dict):
                    raise self._not_openai("a stream choice without `delta`")
                _merge_tool_deltas(calls, delta.get("tool_calls"))
                text = delta.get("content") or ""
                if text:
                    t_first = t_first or time.perf_counter()
                    pieces.append(text)
                    state["delivered"] = True
                    if on_token is not None:
                        on_token(text)
                finish = choice.get("finish_reason") or finish
            if cancel is not None and cancel.is_set():
                finish = "cancelled"
                break
        else:
            if not (cancel is not None and cancel.is_set()):
                raise RemoteUnavailable(f"The remote at {self.host} ended the stream without [DONE] — the turn was not saved")
            finish = "cancelled"
        if calls:
            pieces.append(_tool_calls_text([{"function": calls[i]} for i in sorted(calls)]))
        return self._result("".join(pieces), finish, usage, t0, t_first)

    def _whole(self, resp: httpx.Response, t0: float, on_token, state: dict) -> GenerationResult:
        """A server that ignored `stream` and sent one JSON completion; anything else is a protocol error."""
        body = resp.read()
        obj = self._json(body.decode("utf-8", "replace"), what=_error_text(body))
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._not_openai("JSON without `choices`")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise self._not_openai("a choice without `message`")
        text = (message.get("content") or "") + _tool_calls_text(message.get("tool_calls"))
        if text:
            state["delivered"] = True
            if on_token is not None:
                on_token(text)
        return self._result(text, choices[0].get("finish_reason") or "stop", obj.get("usage") or {}, t0, time.perf_counter())

    def _json(self, data: str, *, what: str | None = None) -> dict:
        try:
            obj = json.loads(data)
        except ValueError:
            raise self._not_openai(what or "a stream event that is not JSON") from None
        if not isinstance(obj, dict):
            raise self._not_openai("JSON that is not an object")
        return obj

    def _not_openai(self, what: str) -> RemoteProtocolError:
        return RemoteProtocolError(
            f"The remote at {self.host} did not answer in the OpenAI chat format (got {what}) — "
            "check that remote.base_url points at an OpenAI-compatible /v1 endpoint"
        )

    @staticmethod
    def _result(text: str, finish: str, usage: dict, t0: float, t_first: float | None) -> GenerationResult:
        t_end = time.perf_counter()
        first = t_first or t_end
        finish = {"tool_calls": "stop", "content_filter": "stop"}.get(finish, finish)
        prompt = int(usage.get("prompt_tokens", 0) or 0)
        return GenerationResult(
            text=text,
            finish_reason=finish,
            prompt_tokens=prompt,
            prefill_tokens=prompt,
            completion_tokens=int(usage.get("completion_tokens", 0) or 0),
            timings_ms={"prefill": (first - t0) * 1000, "ttft": (first - t0) * 1000, "decode": (t_end - first) * 1000, "total": (t_end - t0) * 1000},
        )

    def close(self) -> None:
        self._client.close()


def _tool_calls_text(calls: Any) -> str:
    """OpenAI tool calls back into our Hermes-style text, so the turn loop's parser sees them."""
    if not isinstance(calls, list):
        return ""
    out = []
    for call in calls:
        fn = call.get("function") if isinstance(call, dict) else None
        if isinstance(fn, dict) and fn.get("name"):
            args = fn.get("arguments") or "{}"
            out.append(f'<tool_call>{{"name": {json.dumps(fn["name"])}, "arguments": {args}}}</tool_call>')
    return "".join(out)


def _merge_tool_deltas(calls: dict[int, dict[str, str]], deltas: Any) -> None:
    if not isinstance(deltas, list):
        return
    for i, delta in enumerate(deltas):
        if not isinstance(delta, dict):
            continue
        slot = calls.setdefault(int(delta.get("index", i)), {"name": "", "arguments": ""})
        fn = delta.get("function") if isinstance(delta.get("function"), dict) else {}
        slot["name"] += fn.get("name") or ""
        slot["arguments"] += fn.get("arguments") or ""


class _CancelWatcher:
    """Closes the response when `cancel` is set, so a blocked read returns at once."""

    def __init__(self, cancel: threading.Event | None, resp: httpx.Response) -> None:
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        if cancel is not None:
            self._thread = threading.Thread(target=self._watch, args=(cancel, resp), daemon=True)
            self._thread.start()

    def _watch(self, cancel: threading.Event, resp: httpx.Response) -> None:
        while not self._done.wait(0.05):
            if cancel.is_set():
                resp.close()
                return

    def stop(self) -> None:
        self._done.set()


def remote_engine_from_hcp(hcp) -> RemoteEngine:
    """A RemoteEngine for an HCP with runtime.backend = "remote": one model name per slot, the key from keyring/env."""
    from mol_local.keys import remote_api_key

    remote = hcp.remote
    models = {label: slot.remote_model or remote.model for label, slot in hcp.slots.items()}
    models["route"] = models.get(hcp.entry_slot, remote.model)
    return RemoteEngine(
        remote.base_url,
        models=models,
        default_model=remote.model,
        api_key=remote_api_key(hcp.name),
        mode=remote.mode,
        context_tokens=hcp.n_ctx,
    )
