"""Every OpenAI chat parameter is honoured or refused with a 400 that names it — with the real `openai` SDK
as the client, against a real `mol serve` on 127.0.0.1 and the embedded model."""

from __future__ import annotations

import json

import openai
import pytest

from mol_local.structured import validation_problem
from tests.mol_local.server.conftest import TOKEN

USER = [{"role": "user", "content": "Write one short sentence about cats. Then another about dogs."}]


@pytest.fixture
def client(live) -> openai.OpenAI:
    c = openai.OpenAI(base_url=live.base_url, api_key=TOKEN, max_retries=0, timeout=120)
    yield c
    c.close()


def refused(client: openai.OpenAI, param: str, **kwargs) -> str:
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model=kwargs.pop("model", "L0"), messages=kwargs.pop("messages", USER), **kwargs)
    error = info.value.body
    assert info.value.status_code == 400 and error["param"] == param, error
    assert param in error["message"]
    return error["message"]


def test_stop_cuts_the_answer_before_the_first_stop_string(client) -> None:
    free = client.chat.completions.create(model="L0", messages=USER, max_tokens=40)
    text = free.choices[0].message.content
    words = text.split()
    assert len(words) > 6  # unconstrained, the answer runs on past its fourth word
    cut = client.chat.completions.create(model="L0", messages=USER, max_tokens=40, stop=["\n\n", words[3], "zzzz"])
    assert cut.choices[0].message.content == text[: text.find(words[3])]
    assert cut.choices[0].finish_reason == "stop" and cut.usage.completion_tokens < free.usage.completion_tokens


def test_stop_bad_input_is_refused(client) -> None:
    assert "at most 4" in refused(client, "stop", stop=["a", "b", "c", "d", "e"])
    assert "limit is 256" in refused(client, "stop", stop="x" * 10_000)
    refused(client, "stop", stop=[1, 2])


def test_n_above_one_is_refused_and_one_is_fine(client) -> None:
    assert "one choice" in refused(client, "n", n=2)
    assert len(client.chat.completions.create(model="L0", messages=USER, max_tokens=3, n=1).choices) == 1


def test_seed_makes_sampling_repeatable(client) -> None:
    def sample(seed: int) -> str:
        return client.chat.completions.create(model="L0", messages=USER, max_tokens=16, temperature=1.5, seed=seed).choices[0].message.content

    assert sample(7) == sample(7)
    assert len({sample(s) for s in (1, 2, 3)}) > 1  # the seed is used, not a constant


def test_top_p_is_honoured_and_checked(client) -> None:
    # top_p this small leaves one candidate: sampling at a high temperature collapses to the greedy answer
    greedy = client.chat.completions.create(model="L0", messages=USER, max_tokens=12, temperature=0).choices[0].message.content
    narrow = client.chat.completions.create(model="L0", messages=USER, max_tokens=12, temperature=1.8, top_p=1e-6, seed=3)
    assert narrow.choices[0].message.content == greedy
    refused(client, "top_p", top_p=0)


def test_max_completion_tokens_is_max_tokens(client) -> None:
    resp = client.chat.completions.create(model="L0", messages=USER, max_completion_tokens=5, extra_body={"ignore_eos": True})
    assert resp.usage.completion_tokens == 5 and resp.choices[0].finish_reason == "length"


def test_json_object_answers_are_json_objects(client) -> None:
    resp = client.chat.completions.create(model="L0", messages=[{"role": "user", "content": "Describe a cat as JSON."}],
                                          max_tokens=256, response_format={"type": "json_object"})
    assert resp.choices[0].finish_reason == "stop"
    assert isinstance(json.loads(resp.choices[0].message.content), dict)


def test_json_schema_answers_validate(client) -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}, "legs": {"type": "integer"}},
              "required": ["name", "legs"], "additionalProperties": False}
    resp = client.chat.completions.create(
        model="L0", messages=[{"role": "user", "content": "A cat: give its name and number of legs."}], max_tokens=64,
        response_format={"type": "json_schema", "json_schema": {"name": "animal", "schema": schema, "strict": True}},
    )
    value = json.loads(resp.choices[0].message.content)
    assert validation_problem(schema, value) is None, value


def test_json_schema_bad_input_is_refused(client) -> None:
    def fmt(schema):
        return {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}

    assert "not a valid JSON Schema" in refused(client, "response_format", response_format=fmt({"type": "bogus"}))
    assert "must be a JSON Schema object" in refused(client, "response_format", response_format=fmt([1, 2]))
    big = {"type": "object", "properties": {f"field_{i}": {"type": "string", "description": "x" * 200} for i in range(100)}}
    assert "the limit is" in refused(client, "response_format", response_format=fmt(big))
    huge = {"type": "object", "properties": {"a": {"type": "string", "maxLength": 100_000}}}
    assert "compiles to a grammar" in refused(client, "response_format", response_format=fmt(huge))
    refused(client, "response_format", response_format={"type": "xml"})


WEATHER = [{"type": "function", "function": {"name": "weather", "description": "Current weather in a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "maxLength": 30}}, "required": ["city"]}}},
           {"type": "function", "function": {"name": "time", "parameters": {"type": "object", "properties": {}}}}]


def test_tool_choice_required_forces_a_call(client) -> None:
    resp = client.chat.completions.create(model="L0", messages=[{"role": "user", "content": "Hello there!"}], tools=WEATHER,
                                          tool_choice="required", max_tokens=48)
    choice = resp.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.tool_calls
    assert choice.message.tool_calls[0].function.name in ("weather", "time")
    json.loads(choice.message.tool_calls[0].function.arguments)


def test_tool_choice_named_function_calls_that_function(client) -> None:
    resp = client.chat.completions.create(model="L0", messages=[{"role": "user", "content": "Tell me a joke."}], tools=WEATHER,
                                          tool_choice={"type": "function", "function": {"name": "weather"}}, max_tokens=48)
    call = resp.choices[0].message.tool_calls[0]
    assert call.function.name == "weather" and isinstance(json.loads(call.function.arguments)["city"], str)


def test_tool_choice_bad_input_is_refused(client) -> None:
    assert "not in `tools`" in refused(client, "tool_choice", tools=WEATHER, tool_choice={"type": "function", "function": {"name": "nope"}})
    assert "needs `tools`" in refused(client, "tool_choice", tool_choice="required")
    refused(client, "tool_choice", tools=WEATHER, tool_choice="sometimes")


def test_logprobs_are_refused_not_ignored(client) -> None:
    assert "log-probabilities" in refused(client, "logprobs", logprobs=True)
    refused(client, "top_logprobs", logprobs=False, top_logprobs=3)
    assert client.chat.completions.create(model="L0", messages=USER, max_tokens=2, logprobs=False).choices[0].logprobs is None


def test_unknown_and_unsupported_parameters_are_refused(client) -> None:
    assert "Unrecognized request argument" in refused(client, "frobnicate", extra_body={"frobnicate": 1})
    refused(client, "presence_penalty", presence_penalty=0.5)
    refused(client, "frequency_penalty", frequency_penalty=0.5)
    refused(client, "logit_bias", logit_bias={"42": 10})


def test_parallel_tool_calls_false_keeps_one_call() -> None:
    from mol_local.server.openai import split_tool_calls

    two = '<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>'
    assert len(split_tool_calls(two)[1]) == 2 and [c["function"]["name"] for c in split_tool_calls(two, False)[1]] == ["a"]
