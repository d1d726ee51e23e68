"""The app asks before an MCP tool the HCP does not allow (allow once / always / deny), and exports a conversation
from the command palette's "Export conversation" — a real app, a real MCP server, the real store."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

from app.screens.approval import ToolApproval
from app.screens.modals import TextPrompt
from tests.app.conftest import fast_hcp_text, seed_conversation, wait_for

pytestmark = pytest.mark.asyncio
SERVER = Path(__file__).resolve().parents[1] / "mol_local" / "harness" / "mcp_server.py"


@pytest.fixture
def mcp_runtime(engine, mol_home: Path):
    from hcp import parse_hcp
    from mol_local.runtime import Runtime

    text = fast_hcp_text(tools__mcp__tiny__command=sys.executable, tools__mcp__tiny__args=[str(SERVER)], tools__mcp__tiny__allow=["echo"])
    rt = Runtime(parse_hcp(text), engine=engine)
    yield rt
    rt.tool_hub.close()  # not rt.close(): that would close the shared engine too
    rt.db.close()


async def test_an_unlisted_mcp_tool_asks_the_person(mcp_runtime) -> None:
    from app.app import MolApp
    from mol_local.turn.tasks import ToolCall

    app = MolApp(runtime=mcp_runtime)
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None and mcp_runtime.tool_hub.mcp.approver is not None, what="the approver")
        runner = mcp_runtime.tool_hub.runner("conv")
        results: list[tuple[str, str]] = []

        def call(name: str, **args) -> threading.Thread:
            thread = threading.Thread(target=lambda: results.append(runner.run_detailed(ToolCall(name, args, json.dumps(args)), slot="L0")))
            thread.start()
            return thread

        for key, expect in (("o", ("wiped a", "ok")), ("d", None), ("a", ("wiped a", "ok"))):
            thread = call("tiny.wipe", path="a")
            await wait_for(pilot, lambda: isinstance(app.screen, ToolApproval) and bool(app.screen.query("#approval-question")), what="the approval dialog")
            assert "tiny.wipe" in str(app.screen.query_one("#approval-question").render())
            await pilot.press(key)
            await wait_for(pilot, lambda: not thread.is_alive(), what="the call to finish")
            if expect is None:
                assert results[-1][1] == "denied" and "the person declined tiny.wipe" in results[-1][0]
            else:
                assert results[-1] == expect
        thread = call("tiny.wipe", path="b")  # "always": no dialog this time
        await wait_for(pilot, lambda: not thread.is_alive(), what="the call to finish")
        assert results[-1] == ("wiped b", "ok") and not isinstance(app.screen, ToolApproval)
        thread = call("tiny.echo", text="hi")  # on the allow list: never asks
        await wait_for(pilot, lambda: not thread.is_alive(), what="the call to finish")
        assert results[-1] == ("hi", "ok")


async def test_export_from_the_palette_action(make_app, app_runtime, tmp_path: Path) -> None:
    cid = seed_conversation(app_runtime, "Trip to Lisbon", "Pack light.", slot="L1")
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        await app.chat.open_conversation(cid)
        app.chat.action_export_conversation()
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt) and bool(app.screen.query("#prompt-value")), what="the export prompt")
        field = app.screen.query_one("#prompt-value")
        field.value = str(tmp_path / "trip.md")
        await pilot.press("enter")
        await wait_for(pilot, lambda: (tmp_path / "trip.md").is_file(), what="the export file")
        text = (tmp_path / "trip.md").read_text(encoding="utf-8")
        assert "# Trip to Lisbon" in text and "Pack light." in text
        app.chat.action_export_conversation()
        await wait_for(pilot, lambda: isinstance(app.screen, TextPrompt) and bool(app.screen.query("#prompt-value")), what="the export prompt")
        app.screen.query_one("#prompt-value").value = str(tmp_path / "trip.txt")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(n.severity == "error" and "trip.txt: end the name in .md" in str(n.message)
                                          for n in app._notifications), what="the refusal, as an error notification")
        assert not (tmp_path / "trip.txt").exists()
        assert any(f"to {tmp_path / 'trip.md'}" in str(n.message) for n in app._notifications), "the first export's notice"
