"""The installed `openai` SDK against `mol serve` on 127.0.0.1, unmodified: sync, async, streaming, a tools round
trip and the error classes — and the wire format of every response and every streamed event."""

from __future__ import annotations

import asyncio
import json
import re
import time

import httpx
import openai
import pytest

from tests.mol_local.server.conftest import TOKEN

ASK = [{"role": "user", "content": "Name three colours."}]
FINISH = {"stop", "length", "tool_calls"}
WEATHER = [{"type": "function", "function": {"name": "weather", "description": "Weather in a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "maxLength": 24}}, "required": ["city"]}}}]


@pytest.fixture
def client(live) -> openai.OpenAI:
    c = openai.OpenAI(base_url=live.base_url, api_key=TOKEN, max_retries=0, timeout=120)
    yield c
    c.close()


def check_completion(body: dict, model: str) -> None:
    assert re.fullmatch(r"chatcmpl-[0-9a-f]{32}", body["id"]) and body["object"] == "chat.completion" and body["model"] == model
    assert isinstance(body["created"], int) and abs(body["created"] - time.time()) < 600
    choice = body["choices"][0]
    assert choice["index"] == 0 and choice["finish_reason"] in FINISH and choice["message"]["role"] == "assistant"
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] and usage["prompt_tokens"] > 0


def test_sync_completion_has_the_openai_shape(client, live) -> None:
    resp = client.chat.completions.create(model="L0", messages=ASK, max_tokens=6)
    check_completion(resp.model_dump(), "L0")
    raw = httpx.post(f"{live.base_url}/chat/completions", json={"model": "L0", "messages": ASK, "max_tokens": 3},
                     headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)
    assert raw.headers["content-type"] == "application/json"
    check_completion(raw.json(), "L0")


def test_async_client(live) -> None:
    async def run() -> list:
        async with openai.AsyncOpenAI(base_url=live.base_url, api_key=TOKEN, max_retries=0, timeout=120) as c:
            first = await c.chat.completions.create(model="L1", messages=ASK, max_tokens=4)
            stream = await c.chat.completions.create(model="L1", messages=ASK, max_tokens=4, stream=True)
            pieces = [chunk async for chunk in stream]
            return [first, pieces]

    first, pieces = asyncio.run(run())
    check_completion(first.model_dump(), "L1")
    assert pieces and pieces[-1].choices[0].finish_reason in FINISH


def test_every_streamed_event_has_the_wire_format(live) -> None:
    body = {"model": "L2", "messages": ASK, "max_tokens": 6, "stream": True, "stream_options": {"include_usage": True}}
    with httpx.stream("POST", f"{live.base_url}/chat/completions", json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as resp:
        assert resp.status_code == 200 and resp.headers["content-type"] == "text/event-stream"
        lines = [line for line in resp.iter_lines() if line]
    assert all(line.startswith("data: ") for line in lines) and lines[-1] == "data: [DONE]"
    events = [json.loads(line[6:]) for line in lines[:-1]]
    assert len({e["id"] for e in events}) == 1 and len({e["created"] for e in events}) == 1  # one id, one created
    for e in events:
        assert e["object"] == "chat.completion.chunk" and e["model"] == "L2" and "usage" in e
    assert events[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    content, last, usage = events[1:-2], events[-2], events[-1]
    assert all(e["usage"] is None and e["choices"][0]["finish_reason"] is None and set(e["choices"][0]["delta"]) == {"content"} for e in content)
    assert last["choices"][0]["finish_reason"] in FINISH and last["choices"][0]["delta"] == {} and last["usage"] is None
    tokens = usage["usage"]
    assert usage["choices"] == [] and 0 < tokens["completion_tokens"] <= 6
    assert tokens["total_tokens"] == tokens["prompt_tokens"] + tokens["completion_tokens"]


def test_sdk_stream_joins_to_the_plain_answer(client) -> None:
    plain = client.chat.completions.create(model="L0", messages=ASK, max_tokens=10)
    stream = client.chat.completions.create(model="L0", messages=ASK, max_tokens=10, stream=True, stream_options={"include_usage": True})
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == plain.choices[0].message.content
    assert chunks[-1].usage.completion_tokens == plain.usage.completion_tokens
    without = list(client.chat.completions.create(model="L0", messages=ASK, max_tokens=2, stream=True))
    assert all(c.usage is None for c in without)  # no include_usage: no usage chunk


def test_tools_round_trip(client) -> None:
    ask = [{"role": "user", "content": "What is the weather in Oslo?"}]
    first = client.chat.completions.create(model="L0", messages=ask, tools=WEATHER, tool_choice="required", max_tokens=48)
    call = first.choices[0].message.tool_calls[0]
    assert first.choices[0].finish_reason == "tool_calls" and call.type == "function" and re.fullmatch(r"call_[0-9a-f]{24}", call.id)
    args = json.loads(call.function.arguments)
    assert isinstance(args["city"], str)
    streamed = list(client.chat.completions.create(model="L0", messages=ask, tools=WEATHER, tool_choice="required", max_tokens=48, stream=True))
    deltas = [tc for c in streamed if c.choices for tc in (c.choices[0].delta.tool_calls or [])]
    assert deltas and deltas[0].index == 0 and deltas[0].function.name == "weather"
    assert streamed[-1].choices[0].finish_reason == "tool_calls"
    follow = ask + [first.choices[0].message.model_dump(exclude_none=True),
                    {"role": "tool", "tool_call_id": call.id, "content": "4 C and rain"}]
    final = client.chat.completions.create(model="L0", messages=follow, tools=WEATHER, tool_choice="none", max_tokens=16)
    assert final.choices[0].finish_reason in ("stop", "length") and not final.choices[0].message.tool_calls
    assert final.choices[0].message.content


def test_error_classes_and_keep_alive(client, live) -> None:
    with pytest.raises(openai.NotFoundError) as nf:
        client.chat.completions.create(model="gpt-4o", messages=ASK)
    assert nf.value.body["code"] == "model_not_found"
    with pytest.raises(openai.BadRequestError) as br:
        client.chat.completions.create(model="L0", messages=ASK, n=3)
    assert br.value.body["param"] == "n"
    wrong = openai.OpenAI(base_url=live.base_url, api_key="nope", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        wrong.chat.completions.create(model="L0", messages=ASK)
    wrong.close()
    assert client.chat.completions.create(model="L0", messages=ASK, max_tokens=2).choices  # same connection after the errors
    assert [m.id for m in client.models.list()] == ["mol", "L0", "L1", "L2", "L3"]
    assert client.models.retrieve("L2").id == "L2"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("nope")
