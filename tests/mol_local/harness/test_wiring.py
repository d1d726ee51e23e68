"""The harness inside the runtime: per-conversation runners, tool descriptions in the system head."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hcp import load_profile, parse_hcp
from mol_local.harness.runner import Harness
from mol_local.runtime import Runtime
from mol_local.turn.tasks import ToolCall


@pytest.fixture
def rt(mol_home: Path) -> Iterator[Runtime]:
    runtime = Runtime(load_profile("local-default"))  # the engine stays unloaded: nothing here generates
    yield runtime
    runtime.close()


def test_each_conversation_gets_its_own_harness(rt: Runtime) -> None:
    a, b = rt.session(), rt.session()
    assert isinstance(a.tools, Harness) and isinstance(b.tools, Harness)
    assert a.tools is not b.tools
    assert a.tools.conversation_id == a.conversation_id
    assert rt.tools_for(a.conversation_id) is a.tools


def test_tool_descriptions_sit_in_every_slot_head(rt: Runtime) -> None:
    for slot in rt.hcp.slots:
        head = rt.head(slot)
        assert head.endswith(rt.tool_hub.describe())
        assert "<tool_call>" in head and "python(code)" in head
        assert head == rt.head(slot)  # stable prefix between visits


def test_memory_tools_are_wired_to_the_memory_bank(rt: Runtime) -> None:
    assert {"memory.search", "memory.remember"} <= set(rt.tool_hub.specs())
    harness = rt.session().tools
    assert harness.ctx.memory is not None and harness.ctx.memory.bank is rt.memory


def test_a_custom_runner_replaces_the_harness(mol_home: Path) -> None:
    class Echo:
        def run(self, call: ToolCall, *, slot: str) -> str:
            return call.name

    runtime = Runtime(load_profile("local-default"), tools=Echo())
    try:
        assert isinstance(runtime.session().tools, Echo)
        assert "<tool_call>" not in runtime.head("L0")
    finally:
        runtime.close()


def test_hcp_tools_section_sets_what_is_enabled_and_the_limits(mol_home: Path, tmp_path: Path) -> None:
    text = load_profile("local-default").source.read_text()  # type: ignore[union-attr]
    hcp = parse_hcp(_only_notes(text), source=tmp_path / "h.toml")
    runtime = Runtime(hcp)
    try:
        assert sorted(runtime.tool_hub.specs()) == ["notes.create", "notes.delete", "notes.find", "notes.read"]
        assert runtime.max_tool_rounds == hcp.tools.max_rounds
    finally:
        runtime.close()


def _only_notes(text: str) -> str:
    """The profile with `[tools] enabled = ["notes"]` and no per-tool limits for disabled tools."""
    import tomlkit

    doc = tomlkit.parse(text)
    tools = doc.setdefault("tools", tomlkit.table())
    tools["enabled"] = ["notes"]
    if "limits" in tools:
        del tools["limits"]
    return doc.as_string()


def test_closing_the_runtime_stops_sandboxes(rt: Runtime) -> None:
    session = rt.session()
    assert session.tools.run(ToolCall("python", {"code": "1"}, ""), slot="L2") == "result: 1"
    assert session.tools.sandbox_alive
    rt.tool_hub.close()
    assert not session.tools.sandbox_alive


@pytest.mark.slow
def test_memory_remember_and_search_go_through_the_real_bank(rt: Runtime) -> None:
    harness = rt.session().tools
    text, status = harness.run_detailed(ToolCall("memory.remember", {"text": "My sister Ana lives in Lisbon."}, ""), slot="L1")
    assert status == "ok" and text.startswith("Remembered (")
    harness.run_detailed(ToolCall("memory.remember", {"text": "I am allergic to peanuts."}, ""), slot="L1")
    found, status = harness.run_detailed(ToolCall("memory.search", {"query": "where does my sister live", "k": 1}, ""), slot="L1")
    assert (found, status) == ("- My sister Ana lives in Lisbon.", "ok")
    empty, status = harness.run_detailed(ToolCall("memory.remember", {"text": "   "}, ""), slot="L1")
    assert status == "bad_arguments" and empty.startswith("Error: ")
