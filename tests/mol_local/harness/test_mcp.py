"""MCP tool servers through the harness: a real stdio MCP server (tests/mol_local/harness/mcp_server.py, written
with the same `mcp` SDK) and real subprocesses for every way a server goes wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hcp.model import McpServer
from mol_local.harness.hub import ToolHub
from mol_local.harness.limits import ToolsConfig
from mol_local.harness.mcp import McpHub
from mol_local.harness.mcp_tools import McpTools
from mol_local.turn.tasks import ToolCall

SERVER = Path(__file__).with_name("mcp_server.py")


def server(name: str, mode: str = "ok", **kw) -> McpServer:
    values = dict(name=name, command=sys.executable, args=(str(SERVER), mode), env={}, url="", enabled=True, allow=("*",),
                  timeout_s=20.0, max_result_kb=64)
    return McpServer(**{**values, **kw})


@pytest.fixture
def hub_of(db, mol_home: Path):
    made: list[ToolHub] = []

    def build(*servers: McpServer, approver=None) -> ToolHub:
        tools = McpTools(McpHub({s.name: s for s in servers}, mol_home / "logs"), approver)
        hub = ToolHub(db, ToolsConfig(enabled=("notes",)), home=mol_home, mcp=tools)
        made.append(hub)
        return hub

    yield build
    for hub in made:
        hub.close()


def call(hub: ToolHub, name: str, **args) -> tuple[str, str]:
    return hub.runner("conv").run_detailed(ToolCall(name, args, json.dumps(args)), slot="L0")


def test_tools_appear_next_to_the_builtins_and_run(hub_of) -> None:
    hub = hub_of(server("tiny"))
    specs = hub.specs()
    assert {"tiny.add", "tiny.echo", "tiny.wipe", "notes.find"} <= set(specs)
    described = hub.describe()
    assert "- tiny.add(a, b): Add two integers and return the sum" in described and "notes.find" in described
    assert call(hub, "tiny.add", a=2, b=40) == ("42", "ok")
    audit = hub.audit.list(conversation_id="conv")
    assert audit[0]["tool"] == "tiny.add" and audit[0]["status"] == "ok" and json.loads(audit[0]["arguments"]) == {"a": 2, "b": 40}


def test_arguments_are_checked_like_the_builtins(hub_of) -> None:
    hub = hub_of(server("tiny"))
    text, status = call(hub, "tiny.add", a=2)
    assert status == "bad_arguments" and "needs the argument 'b'" in text and "call it as tiny.add(a: integer, b: integer)" in text
    text, status = call(hub, "tiny.add", a="two", b=1)
    assert status == "bad_arguments" and "argument 'a' must be a" in text
    text, status = call(hub, "tiny.ad", a=1, b=2)
    assert status == "unknown_tool" and "did you mean 'tiny.add'" in text


def test_a_command_that_does_not_exist_is_one_line(hub_of) -> None:
    hub = hub_of(server("gone", command="/no/such/mcp-server"), server("tiny"))
    assert "tiny.add" in hub.specs()  # the other server still works
    assert hub.mcp.hub.problems() == {"gone": "command '/no/such/mcp-server' was not found — install it or fix tools.mcp.gone.command"}


@pytest.mark.parametrize("mode", ["garbage", "silent"])
def test_a_server_that_never_answers_initialize_is_one_line(hub_of, mode) -> None:
    hub = hub_of(server("bad", mode, timeout_s=2.0))
    assert not [n for n in hub.specs() if n.startswith("bad.")]
    problem = hub.mcp.hub.problems()["bad"]
    assert problem.startswith("did not answer initialize within 2 s") and "\n" not in problem


def test_a_10_mb_result_is_refused_whole(hub_of) -> None:
    hub = hub_of(server("tiny", timeout_s=60.0))
    text, status = call(hub, "tiny.big", mb=10)
    assert status == "crashed" and "tiny.big returned 10.0 MB; the limit is 64 KB (tools.mcp.tiny.max_result_kb)" in text
    assert len(text) < 400
    assert call(hub, "tiny.echo", text="still here") == ("still here", "ok")


def test_a_server_that_dies_mid_call_is_one_line_and_comes_back(hub_of) -> None:
    hub = hub_of(server("tiny"))
    text, status = call(hub, "tiny.die")
    assert status == "crashed" and text.startswith("Error: the MCP server tiny failed during die") and "\n" not in text
    assert call(hub, "tiny.add", a=1, b=1) == ("2", "ok")  # started again on the next call


def test_a_call_past_the_timeout_is_one_line(hub_of) -> None:
    hub = hub_of(server("tiny", timeout_s=2.0))
    text, status = call(hub, "tiny.slow", seconds=30)
    assert status == "crashed" and "tiny.slow did not answer within 2 s (tools.mcp.tiny.timeout_s)" in text


def test_destructive_and_unlisted_tools_need_the_person(hub_of) -> None:
    hub = hub_of(server("tiny", allow=("*",)))
    text, status = call(hub, "tiny.wipe", path="/tmp/x")  # "*" never covers a tool the server marks destructive
    assert status == "denied" and "marks it destructive" in text and "tools.mcp.tiny.allow" in text
    listed = hub_of(server("only", allow=("echo",)))
    assert call(listed, "only.echo", text="hi") == ("hi", "ok")
    assert call(listed, "only.add", a=1, b=2)[1] == "denied"
    named = hub_of(server("named", allow=("wipe",)))
    assert call(named, "named.wipe", path="a") == ("wiped a", "ok")


def test_the_person_answers_once_always_or_deny(hub_of) -> None:
    answers = iter(["once", "deny", "always"])
    asked: list[str] = []

    def approver(tool, args):
        asked.append(f"{tool.full_name} {args}")
        return next(answers)

    hub = hub_of(server("tiny", allow=()), approver=approver)
    assert call(hub, "tiny.wipe", path="a") == ("wiped a", "ok")
    text, status = call(hub, "tiny.wipe", path="b")
    assert status == "denied" and "the person declined tiny.wipe" in text
    assert call(hub, "tiny.wipe", path="c")[0] == "wiped c"
    assert call(hub, "tiny.wipe", path="d")[0] == "wiped d"  # "always": not asked again
    assert asked == ["tiny.wipe {'path': 'a'}", "tiny.wipe {'path': 'b'}", "tiny.wipe {'path': 'c'}"]
