"""Shared by the tool-loop tests: the real engine with each answer hop's text forced by a literal grammar.

`Scripted` hands the real llama.cpp engine a literal grammar for each answer hop,
so the model really decodes (tokenizer, sampler, KV) the call a test needs: a
valid call, a malformed one, or a call repeated past tools.max_rounds.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.turn.tasks import WORDS_ONLY

NOW = datetime(2026, 12, 1, 20, 53)


def literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'root ::= "{escaped}"\n'


class Scripted:
    """The real engine; answer hops (not summaries, not routes) decode the next scripted text under a grammar."""

    def __init__(self, engine, outputs: list[str]) -> None:
        self._engine = engine
        self.outputs = list(outputs)
        self.views: list[list[dict]] = []
        self.words: list[bool] = []  # whether each scripted hop was held to words (tasks.WORDS_ONLY)

    def __getattr__(self, name: str):
        return getattr(self._engine, name)

    def close(self) -> None:
        """The engine is the session's shared one: the runtime closing must not free it."""

    def generate(self, request: GenerationRequest):
        if request.keep_prefix_of is None and request.grammar in (None, WORDS_ONLY) and self.outputs:
            self.views.append([dict(m) for m in request.messages])
            self.words.append(request.grammar == WORDS_ONLY)
            request = replace(request, grammar=literal(self.outputs.pop(0)), max_tokens=256)  # the caller's request stays as asked
        return self._engine.generate(request)


def call(name: str, **arguments) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


@pytest.fixture
def scripted_runtime(engine, mol_home, test_hcp_path):
    from hcp import load_hcp
    from mol_local.runtime import Runtime

    def make(outputs: list[str]) -> tuple[Runtime, Scripted]:
        scripted = Scripted(engine, outputs)
        rt = Runtime(load_hcp(test_hcp_path), engine=scripted)  # type: ignore[arg-type]
        rt.clock = lambda: NOW
        made.append(rt)
        return rt, scripted

    made: list = []
    yield make
    for rt in made:
        rt.close()
