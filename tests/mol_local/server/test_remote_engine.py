"""RemoteEngine against a real `mol serve` on 127.0.0.1 (both modes), a misbehaving remote, and the offline fallback."""

from __future__ import annotations

import threading
import time

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.engine.remote import RemoteEngine
from mol_local.errors import RemoteAuthError, RemoteProtocolError, RemoteRequestError, RemoteUnavailable
from tests.mol_local.server.conftest import TOKEN, free_port, spawn_serve


def engine_for(url: str, key: str | None = TOKEN, **kwargs) -> RemoteEngine:
    return RemoteEngine(url, models={"L1": "L1"}, default_model="L0", api_key=key, **kwargs)


def ask(**kwargs) -> GenerationRequest:
    return GenerationRequest(seq="L1", messages=[{"role": "user", "content": "Name a colour."}], **kwargs)


def test_engine_mode_streams_tokens_from_the_slot_model(live) -> None:
    eng = engine_for(live.base_url)
    pieces: list[str] = []
    result = eng.generate(ask(max_tokens=6, ignore_eos=True, on_token=pieces.append))
    assert result.finish_reason == "length" and result.completion_tokens == 6
    assert len(pieces) >= 3 and "".join(pieces) == result.text
    assert result.prompt_tokens > 0 and eng.supports_grammar is False
    eng.close()


def test_engine_mode_turn_routes_here_and_records_the_route(live, client_runtime) -> None:
    rt = client_runtime(live.port, mode="engine")
    result = rt.session().run_turn("Write a haiku about tea.")
    assert result.engine == f"remote 127.0.0.1:{live.port} (engine)"
    decision = rt.timeline.route_decision(result.task_id)
    assert decision is not None and decision["slot"] == result.slot  # junk route text falls back, and is recorded
    assert bool(decision["fallback"]) == (decision["raw_output"].strip() not in ("L0", "L1", "L2", "L3"))
    assert result.summary is not None  # our loop summarised, through the remote slot model
    assert live.runtime.timeline.list_conversations() == []  # slot models store nothing on the server


def test_mol_mode_remote_runs_the_turn_memory_stays_local(live, client_runtime) -> None:
    rt = client_runtime(live.port, mode="mol", routing="fixed")
    session = rt.session()
    tokens: list[str] = []
    from mol_local.turn import TurnHooks

    first = session.run_turn("Hello there.", hooks=TurnHooks(on_token=tokens.append))
    assert first.engine == f"remote 127.0.0.1:{live.port} (mol)" and "".join(tokens).strip() == first.answer
    session.run_turn("Tell me more.")
    local = rt.timeline.load_tasks(session.conversation_id)
    assert [m.role for t in local for m in t.messages] == ["user", "assistant", "user", "assistant"]
    served = live.runtime.timeline.load_tasks(session.conversation_id)  # the same conversation id on the server
    assert [m.content for t in served for m in t.messages if m.role == "user"] == ["Hello there.", "Tell me more."]


def test_cancel_closes_the_stream(live, engine) -> None:
    eng = engine_for(live.base_url)
    cancel = threading.Event()
    result = eng.generate(ask(max_tokens=300, ignore_eos=True, cancel=cancel, on_token=lambda _p: cancel.set()))
    assert result.finish_reason == "cancelled"
    deadline = time.monotonic() + 60
    while live.server.inflight() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.server.inflight() == 0  # the server saw the closed stream and stopped
    assert engine.held_tokens("L1") < engine.count_tokens(ask().messages) + 150
    eng.close()


def test_wrong_key_and_unknown_model_are_clear(live) -> None:
    with pytest.raises(RemoteAuthError, match="mol remote login"):
        engine_for(live.base_url, key="wrong").generate(ask(max_tokens=2))
    with pytest.raises(RemoteRequestError, match="Unknown model 'nope'"):
        RemoteEngine(live.base_url, models={}, default_model="nope", api_key=TOKEN).generate(ask(max_tokens=2))


def test_unreachable_is_retried_with_backoff_then_unavailable() -> None:
    eng = engine_for(f"http://127.0.0.1:{free_port()}/v1", retries=2, backoff_s=0.1)
    t0 = time.perf_counter()
    with pytest.raises(RemoteUnavailable, match="after 3 attempts"):
        eng.generate(ask(max_tokens=2))
    assert eng.attempts == 3 and time.perf_counter() - t0 >= 0.3  # 0.1 + 0.2 s of backoff


def test_5xx_is_retried_then_succeeds(scripted) -> None:
    ok = 'data: {"choices": [{"index": 0, "delta": {"content": "blue"}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n'
    srv, url = scripted([(503, "application/json", '{"error": {"message": "busy"}}'), (200, "text/event-stream", ok)])
    eng = engine_for(url, backoff_s=0.05)
    assert eng.generate(ask(max_tokens=2)).text == "blue"
    assert srv.hits == 2


@pytest.mark.parametrize(
    ("status", "ctype", "body", "error", "needle"),
    [
        (200, "application/json", '{"result": "hi"}', RemoteProtocolError, "without `choices`"),
        (200, "text/html", "<!DOCTYPE html><html><body>Login</body></html>", RemoteProtocolError, "an HTML page"),
        (502, "text/html", "<html><body>Bad gateway</body></html>", RemoteUnavailable, "an HTML page"),
        (200, "text/event-stream", "data: {\"id\": 1}\n\ndata: [DONE]\n\n", RemoteProtocolError, "without `choices`"),
        (200, "text/event-stream", "data: <html>\n\n", RemoteProtocolError, "not JSON"),
    ],
)
def test_a_remote_that_is_not_openai_gets_a_clear_message(scripted, status, ctype, body, error, needle) -> None:
    _srv, url = scripted([(status, ctype, body)])
    with pytest.raises(error, match=needle) as info:
        engine_for(url, backoff_s=0.01).generate(ask(max_tokens=2))
    assert "\n" not in str(info.value) and "—" in str(info.value)  # one line, with the fix


def test_unreachable_remote_falls_back_to_the_local_profile(client_runtime) -> None:
    rt = client_runtime(free_port(), mode="engine", routing="fixed")
    rt.engine.backoff_s = 0.01
    session = rt.session()
    told: list[str] = []
    bound: list[object] = []
    from mol_local.turn import TurnHooks

    first = session.run_turn("Hi.", hooks=TurnHooks(on_fallback=told.append, on_token=lambda _t: bound.append(session.runtime)))
    assert first.engine.startswith("local serve-test (fallback") and told and "unavailable" in told[0]
    assert bound and all(r is rt for r in bound)  # the fallback answers this turn; the session is never rebound
    second = session.run_turn("Go on.")  # the conversation continues seamlessly
    assert "fallback" in second.engine
    assert len(rt.timeline.load_tasks(session.conversation_id)) == 2


def test_no_fallback_configured_says_so(client_runtime) -> None:
    rt = client_runtime(free_port(), mode="engine", routing="fixed", fallback="")
    rt.engine.backoff_s = 0.01
    with pytest.raises(RemoteUnavailable, match="remote.fallback"):
        rt.session().run_turn("Hi.")
    assert rt.timeline.list_conversations() == []


@pytest.mark.slow
def test_server_killed_mid_stream_rolls_back_and_fallback_answers(tmp_path, client_runtime) -> None:
    proc = spawn_serve(tmp_path)
    try:
        rt = client_runtime(proc.port, mode="engine", routing="fixed", answer_tokens=64)
        remote_tokens: list[str] = []

        def on_token(piece: str) -> None:
            remote_tokens.append(piece)
            if proc.proc.poll() is None:
                proc.stop()  # SIGKILL at the first remote token

        from mol_local.turn import TurnHooks

        session = rt.session()
        result = session.run_turn("List twenty fruits, one per line.", hooks=TurnHooks(on_token=on_token))
        assert proc.proc.returncode is not None and remote_tokens
        assert "fallback" in result.engine
        tasks = rt.timeline.load_tasks(session.conversation_id)
        assert len(tasks) == 1  # nothing of the broken remote turn was committed
        assert [m.content for m in tasks[0].messages if m.role == "assistant"] == [result.answer]
    finally:
        proc.stop()
