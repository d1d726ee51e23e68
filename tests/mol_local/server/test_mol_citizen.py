"""Model `mol` behaves like an OpenAI model for stateless clients: their messages are the context, the personal
memory tail only when the HCP allows it, answer-hop parameters apply and finish_reason tells the truth, and a
request with tools never gets a UI document. Real `mol serve` on 127.0.0.1, the openai SDK as client."""

from __future__ import annotations

import openai
import pytest

from tests.mol_local.server.conftest import SLOTS, TOKEN, write_hcp


def hcp_text(*, entry: str = "L0", api_memory: str = "off", answer_tokens: int = 16) -> str:
    return f"""schema = 1
name = "citizen-test"
persona_pack = "./pack"
[runtime]
n_ctx = 2048
kv_cells = 4096
[routing]
mode = "fixed"
entry_slot = "{entry}"
fallback = "L0"
max_tokens = 4
[answer]
max_tokens = {answer_tokens}
[summary]
max_tokens = 8
[memory]
auto_extract = false
[serve]
api_memory = "{api_memory}"
[tools]
enabled = []
{SLOTS}"""


@pytest.fixture
def serve(engine, tmp_path, monkeypatch):
    """Start `mol serve` (in a thread) on an HCP of this test's choosing; yields (runtime, openai client)."""
    from mol_local.runtime import Runtime
    from mol_local.server import make_server, serve_in_thread

    started = []

    def start(**hcp):
        monkeypatch.setenv("MOL_HOME", str(tmp_path / f"home-{len(started)}"))
        runtime = Runtime(write_hcp(tmp_path / f"hcp-{len(started)}" / "hcp.toml", hcp_text(**hcp)), engine=engine)
        server = make_server(runtime, TOKEN, port=0)
        serve_in_thread(server)
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{server.port}/v1", api_key=TOKEN, max_retries=0, timeout=120)
        started.append((server, runtime, client))
        return runtime, client

    yield start
    for server, runtime, client in started:
        client.close()
        server.drain(grace_s=5)
        runtime.db.close()


def test_without_an_id_the_clients_messages_and_system_prompt_are_the_context(serve) -> None:
    runtime, client = serve()
    messages = [
        {"role": "system", "content": "Always answer in French."},
        {"role": "user", "content": "My secret word is PINEAPPLE."},
        {"role": "assistant", "content": "Noted: PINEAPPLE."},
        {"role": "user", "content": "What is my secret word?"},
    ]
    resp = client.chat.completions.create(model="mol", messages=messages, max_tokens=8)
    bare = client.chat.completions.create(model="mol", messages=messages[-1:], max_tokens=8)
    assert resp.usage.prompt_tokens > bare.usage.prompt_tokens + 10  # the system prompt and the earlier turn were in the view
    from mol_local.server.service import ServeService

    seeded = ServeService(runtime).session(None, messages[1:3])
    assert [m.content for t in seeded.tasks for m in t.messages] == ["My secret word is PINEAPPLE.", "Noted: PINEAPPLE."]


def test_the_view_holds_the_system_prompt_and_history(serve) -> None:
    from mol_local.turn.options import AnswerOptions

    runtime, client = serve()
    messages = [{"role": "system", "content": "Always answer in French."}, {"role": "user", "content": "My secret word is PINEAPPLE."},
                {"role": "assistant", "content": "Noted."}, {"role": "user", "content": "What is my secret word?"}]
    resp = client.chat.completions.create(model="mol", messages=messages, max_tokens=4)
    conversation = resp.model_extra["mol"]["conversation_id"]
    stored = runtime.timeline.load_tasks(conversation)
    assert [m.content for t in stored for m in t.messages if m.role == "user"] == ["What is my secret word?"]  # only the new turn is stored
    session = runtime.session(None)
    session.options = AnswerOptions(system="Always answer in French.")
    from mol_local.server.service import _seed

    session.tasks = _seed(session.conversation_id, messages[1:3], "L0")
    view = session.view_for("L0", [{"role": "user", "content": "What is my secret word?"}])
    assert "Always answer in French." in view[0]["content"] and any("PINEAPPLE" in m["content"] for m in view[1:])


def test_memory_tail_only_when_the_hcp_allows_it(serve) -> None:
    from memory.store import new_memory

    for policy, metadata, expect in (("off", {"mol_memory": True}, False), ("opt_in", {}, False), ("opt_in", {"mol_memory": True}, True),
                                     ("on", {}, True)):
        runtime, client = serve(api_memory=policy)
        runtime.memory.add([new_memory("The user's secret word is BISCUIT")])
        resp = client.chat.completions.create(model="mol", messages=[{"role": "user", "content": "What is my secret word?"}],
                                              max_tokens=4, metadata=metadata or None)
        assert bool(resp.model_extra["mol"]["memory_ids"]) is expect, (policy, metadata)


def test_max_tokens_stop_and_finish_reason_apply_to_the_answer(serve) -> None:
    _, client = serve(answer_tokens=64)
    ask = [{"role": "user", "content": "Tell me about the sea in a few sentences."}]
    cut = client.chat.completions.create(model="mol", messages=ask, max_tokens=3)
    assert cut.choices[0].finish_reason == "length" and cut.usage.completion_tokens == 3
    word = client.chat.completions.create(model="mol", messages=ask, stop=[" "], max_tokens=40)
    assert " " not in word.choices[0].message.content.strip() and word.choices[0].finish_reason == "stop"


def test_json_output_and_tools_never_land_on_the_ui_slot(serve) -> None:
    _, client = serve(entry="L3")  # every request routes to the UI slot
    plain = client.chat.completions.create(model="mol", messages=[{"role": "user", "content": "hi"}], max_tokens=8)
    assert plain.model_extra["mol"]["slot"] == "L3"
    as_json = client.chat.completions.create(model="mol", messages=[{"role": "user", "content": "A packing list"}], max_tokens=48,
                                             response_format={"type": "json_object"})
    assert as_json.model_extra["mol"]["slot"] == "L0"
    tools = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
    called = client.chat.completions.create(model="mol", messages=[{"role": "user", "content": "Weather in Oslo?"}], tools=tools,
                                            tool_choice="required", max_tokens=48)
    assert called.model_extra["mol"]["slot"] == "L0" and called.choices[0].message.tool_calls[0].function.name == "weather"
    assert "catalog" not in (called.choices[0].message.content or "")
