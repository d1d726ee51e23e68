"""`mol serve` over real HTTP on 127.0.0.1: auth, models, completions, streaming, bad input."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from tests.mol_local.server.conftest import TOKEN, start_live

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def post(live, body, *, headers=None, timeout=120.0) -> httpx.Response:
    return httpx.post(f"{live.base_url}/chat/completions", json=body, headers={**AUTH, **(headers or {})}, timeout=timeout)


def sse_events(resp: httpx.Response) -> list[tuple[float, str]]:
    out = []
    for line in resp.iter_lines():
        if line.startswith("data: "):
            out.append((time.perf_counter(), line[6:]))
    return out


def test_health_is_open_and_models_need_the_token(live) -> None:
    assert httpx.get(f"http://127.0.0.1:{live.port}/health").json() == {"status": "ok"}
    missing = httpx.get(f"{live.base_url}/models")
    assert missing.status_code == 401 and "bearer token" in missing.json()["error"]["message"]
    assert missing.headers["WWW-Authenticate"].startswith("Bearer")
    for wrong in ("Bearer nope", f"Bearer {TOKEN}x", f"Basic {TOKEN}", TOKEN):
        assert httpx.get(f"{live.base_url}/models", headers={"Authorization": wrong}).status_code == 401
    ok = httpx.get(f"{live.base_url}/models", headers=AUTH)
    assert [m["id"] for m in ok.json()["data"]] == ["mol", "L0", "L1", "L2", "L3"]


def test_wrong_token_cannot_chat(live) -> None:
    resp = httpx.post(f"{live.base_url}/chat/completions", json={"model": "L0", "messages": [{"role": "user", "content": "hi"}]},
                      headers={"Authorization": "Bearer wrong"})
    assert resp.status_code == 401 and resp.json()["error"]["code"] == "invalid_api_key"


def test_slot_model_completion_has_openai_shape(live) -> None:
    resp = post(live, {"model": "L1", "messages": [{"role": "user", "content": "Name a fruit."}], "max_tokens": 5, "ignore_eos": True})
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["object"] == "chat.completion" and body["model"] == "L1"
    choice = body["choices"][0]
    assert choice["message"]["role"] == "assistant" and choice["message"]["content"]
    assert choice["finish_reason"] == "length"
    assert body["usage"]["completion_tokens"] == 5 and body["usage"]["prompt_tokens"] > 0


def test_streaming_is_incremental(live) -> None:
    body = {"model": "L2", "messages": [{"role": "user", "content": "Count."}], "max_tokens": 8, "ignore_eos": True,
            "stream": True, "stream_options": {"include_usage": True}}
    with httpx.stream("POST", f"{live.base_url}/chat/completions", json=body, headers=AUTH, timeout=120) as resp:
        assert resp.status_code == 200 and resp.headers["content-type"] == "text/event-stream"
        events = sse_events(resp)
    assert events[-1][1] == "[DONE]"
    chunks = [json.loads(data) for _, data in events[:-1]]
    content = [(t, c["choices"][0]["delta"]["content"]) for (t, _), c in zip(events, chunks) if c["choices"] and c["choices"][0]["delta"].get("content")]
    assert len(content) >= 4  # one event per token, not one blob at the end
    times = [t for t, _ in content]
    assert times == sorted(times) and times[-1] - times[0] > 0.001
    assert chunks[-1]["usage"]["completion_tokens"] == 8
    assert [c for c in chunks if c["choices"] and c["choices"][0]["finish_reason"] == "length"]


def test_mol_model_runs_a_turn_and_keeps_the_conversation(live) -> None:
    conv = "conv-test-1"
    first = post(live, {"model": "mol", "messages": [{"role": "user", "content": "Hello, who are you?"}]}, headers={"X-Mol-Conversation": conv})
    assert first.status_code == 200, first.text
    assert first.headers["X-Mol-Conversation"] == conv
    meta = first.json()["mol"]
    assert meta["conversation_id"] == conv and meta["slot"] in ("L0", "L1", "L2", "L3") and meta["engine"] == "local serve-test"
    second = post(live, {"model": "mol", "messages": [{"role": "user", "content": "And again?"}], "metadata": {"conversation_id": conv}})
    assert second.status_code == 200
    tasks = live.runtime.timeline.load_tasks(conv)
    assert [m.content for t in tasks for m in t.messages if m.role == "user"] == ["Hello, who are you?", "And again?"]


def test_concurrent_conversations(live) -> None:
    import concurrent.futures as cf

    def one(i: int) -> int:
        return post(live, {"model": "mol", "messages": [{"role": "user", "content": f"Say the number {i}."}]}, headers={"X-Mol-Conversation": f"c{i}"}).status_code

    with cf.ThreadPoolExecutor(3) as pool:
        assert list(pool.map(one, range(3))) == [200, 200, 200]
    assert {c["id"] for c in live.runtime.timeline.list_conversations(every_source=True)} == {"c0", "c1", "c2"}
    assert live.runtime.timeline.list_conversations() == []  # API clients' conversations stay out of the app's list


def test_tool_calls_pass_through(live) -> None:
    """An assistant tool call and a tool result go in as our <tool_call> text; the turn still answers."""
    messages = [
        {"role": "user", "content": "Weather in Oslo?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "4 C, rain"},
    ]
    tools = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}]
    resp = post(live, {"model": "L0", "messages": messages, "tools": tools, "max_tokens": 4})
    assert resp.status_code == 200, resp.text
    from mol_local.server.openai import split_tool_calls

    content, calls = split_tool_calls('Checking.<tool_call>{"name": "weather", "arguments": {"city": "Oslo"}}</tool_call>')
    assert content == "Checking." and calls[0]["function"] == {"name": "weather", "arguments": '{"city": "Oslo"}'}


@pytest.mark.parametrize(
    ("send", "status", "needle"),
    [
        (lambda url: httpx.post(url, content=b"{not json", headers={**AUTH, "Content-Type": "application/json"}), 400, "not valid JSON"),
        (lambda url: httpx.post(url, content=b'{"model": "L0"}', headers={**AUTH, "Content-Type": "text/plain"}), 415, "application/json"),
        (lambda url: httpx.post(url, json={"model": "L9", "messages": [{"role": "user", "content": "x"}]}, headers=AUTH), 404, "Unknown model 'L9'"),
        (lambda url: httpx.post(url, json={"messages": [{"role": "user", "content": "x"}]}, headers=AUTH), 400, "`model` is required"),
        (lambda url: httpx.post(url, json={"model": "L0"}, headers=AUTH), 400, "`messages` is required"),
        (lambda url: httpx.post(url, json={"model": "L0", "messages": [{"role": "wizard", "content": "x"}]}, headers=AUTH), 400, "role must be one of"),
        (lambda url: httpx.post(url, json={"model": "L0", "messages": [{"role": "user", "content": "x"}], "max_tokens": "many"}, headers=AUTH), 400, "`max_tokens` must be a int"),
        (lambda url: httpx.post(url, json={"model": "mol", "messages": [{"role": "assistant", "content": "x"}]}, headers=AUTH), 400, "last message must be the user's"),
        (lambda url: httpx.post(url, json={"model": "mol", "messages": [{"role": "user", "content": "x"}]}, headers={**AUTH, "X-Mol-Conversation": "bad id!"}), 400, "conversation id"),
        (lambda url: httpx.post(url, json={"model": "mol", "messages": [{"role": "user", "content": "   "}]}, headers=AUTH), 400, "Empty message"),
        (lambda url: httpx.post(url, json={"model": "L0", "messages": [{"role": "user", "content": "x" * 3000}]}, headers=AUTH), 413, "limit is 2048"),
        (lambda url: httpx.put(url, json={}, headers=AUTH), 501, ""),
    ],
)
def test_bad_input_gets_a_clear_http_error_and_the_server_keeps_serving(engine, tmp_path, monkeypatch, send, status, needle) -> None:
    lv = start_live(engine, tmp_path, monkeypatch, max_body=2048)
    try:
        resp = send(f"{lv.base_url}/chat/completions")
        assert resp.status_code == status, resp.text
        if needle:
            assert needle in resp.json()["error"]["message"]
        again = httpx.get(f"{lv.base_url}/models", headers=AUTH)
        assert again.status_code == 200
    finally:
        lv.server.drain(grace_s=5)
        lv.runtime.db.close()


def test_huge_body_is_refused_before_it_is_read(live) -> None:
    """A 64 MiB Content-Length is answered 413 at once, without the server reading the body."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n"
                  f"Content-Type: application/json\r\nContent-Length: {64 << 20}\r\n\r\n{{".encode())
        reply = s.recv(4096).decode()
    assert reply.startswith("HTTP/1.1 413") and "Connection: close" in reply


def test_a_client_resetting_mid_request_is_not_a_traceback(live, capsys) -> None:
    """A half-sent request line, then a TCP reset: the server says nothing and keeps serving."""
    import struct

    s = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    s.sendall(b"POST /v1/chat/comp")
    time.sleep(0.2)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close() sends RST
    s.close()
    time.sleep(0.5)
    assert "Exception occurred" not in capsys.readouterr().err
    assert post(live, {"model": "L0", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 2}).status_code == 200


def test_client_disconnect_mid_stream_stops_generation(live, engine) -> None:
    body = {"model": "L3", "messages": [{"role": "user", "content": "Tell a long story."}], "max_tokens": 400, "ignore_eos": True, "stream": True}
    with httpx.stream("POST", f"{live.base_url}/chat/completions", json=body, headers=AUTH, timeout=120) as resp:
        for line in resp.iter_lines():
            if '"content": "' in line and '"content": ""' not in line:
                break  # first token seen: hang up
    deadline = time.monotonic() + 60
    while live.server.inflight() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.server.inflight() == 0
    prompt = engine.count_tokens([{"role": "user", "content": "Tell a long story."}])
    assert engine.held_tokens("L3") < prompt + 200  # it stopped long before 400 tokens
    assert post(live, {"model": "L0", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 2}).status_code == 200


@pytest.mark.slow
def test_sigterm_drains_a_running_stream_then_exits(tmp_path) -> None:
    """`mol serve` as a subprocess: SIGTERM mid-stream lets the stream finish with [DONE], then the process exits 0."""
    import signal

    from tests.mol_local.server.conftest import spawn_serve

    proc = spawn_serve(tmp_path)
    try:
        body = {"model": "L0", "messages": [{"role": "user", "content": "Count to fifty."}], "max_tokens": 12, "ignore_eos": True, "stream": True}
        url = f"http://127.0.0.1:{proc.port}/v1/chat/completions"
        events: list[str] = []
        with httpx.stream("POST", url, json=body, headers=AUTH, timeout=300) as resp:
            for line in resp.iter_lines():
                if line.startswith("data: "):
                    events.append(line[6:])
                    if len(events) == 2:  # the first token is out: ask the server to stop
                        proc.proc.send_signal(signal.SIGTERM)
        assert events[-1] == "[DONE]"
        assert sum(1 for e in events[:-1] if json.loads(e)["choices"] and json.loads(e)["choices"][0]["delta"].get("content")) >= 10
        assert proc.proc.wait(timeout=120) == 0
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.1:{proc.port}/health", timeout=5)
    finally:
        proc.stop()


def test_stream_gate_holds_back_tool_calls_only() -> None:
    from mol_local.server.openai import ContentGate

    gate = ContentGate()
    pieces = ["Sure", ". <to", "ol_call>", '{"name": "x", "arguments": {}}', "</tool_call>"]
    assert "".join(gate.feed(p) for p in pieces) == "Sure. "
    assert gate.rest("".join(pieces)) == ""
    plain = ContentGate()
    out = [plain.feed(p) for p in ["a <", "b", " <tool"]]
    assert out == ["a ", "<b", " "] and plain.rest("a <b <tool") == "<tool"
