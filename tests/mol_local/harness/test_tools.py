"""Built-in tools through the Harness (the turn loop's ToolRunner), the audit log, refusals."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from mol_local.harness.hub import ToolHub
from mol_local.turn.tasks import parse_tool_calls
from tests.mol_local.harness.conftest import call


def _audit(hub: ToolHub) -> list[dict]:
    return list(reversed(hub.audit.list()))


def test_notes_create_find_read(harness, hub: ToolHub) -> None:
    text, status = call(harness, "notes.create", {"title": "Groceries", "body": "oat milk, rye bread"})
    assert status == "ok" and text.startswith("Saved note ")
    note_id = text.split()[2].rstrip(":")
    found, _ = call(harness, "notes.find", {"query": "MILK oat"})
    assert note_id in found and "Groceries" in found
    assert call(harness, "notes.find", {"query": "quinoa"}) == ("No notes match 'quinoa'.", "ok")
    assert call(harness, "notes.read", {"id": note_id}) == ("Groceries\n\noat milk, rye bread", "ok")
    missing, status = call(harness, "notes.read", {"id": "nope"})
    assert status == "bad_arguments" and "notes.find" in missing


def test_reminders_create_list_complete_and_due(harness, hub: ToolHub) -> None:
    hub.reminders.clock = lambda: datetime.now() - timedelta(minutes=10)  # set ten minutes ago, due five minutes ago
    text, status = call(harness, "reminders.create", {"text": "water the plants", "due": "in 5 minutes"})
    hub.reminders.clock = datetime.now
    assert status == "ok"
    rid = text.split()[1]
    call(harness, "reminders.create", {"text": "someday"})
    listed, _ = call(harness, "reminders.list")
    assert "water the plants" in listed and "no due time" in listed
    assert [r["text"] for r in hub.reminders.due()] == ["water the plants"]  # what the app surfaces
    assert call(harness, "reminders.complete", {"id": rid}) == ("Done: water the plants. Still open: someday (no due time).", "ok")
    assert "water the plants" not in call(harness, "reminders.list")[0]
    assert "(done)" in call(harness, "reminders.list", {"include_done": True})[0]
    assert hub.reminders.due() == []
    other = next(r["id"] for r in hub.reminders.list() if r["text"] == "someday")
    assert call(harness, "reminders.complete", {"id": other}) == ("Done: someday. Nothing else is open.", "ok")



def test_reminders_cancel_removes_one_and_a_repeating_one_stops(harness, hub: ToolHub) -> None:
    """`mol chat`: "Delete my stretch reminder" had ticked it off, and a ticked-off daily reminder opens tomorrow's."""
    daily = call(harness, "reminders.create", {"text": "stretch", "due": "every day at 7am"})[0].split()[1]
    other = call(harness, "reminders.create", {"text": "call mum", "due": "2030-01-04T15:00"})[0].split()[1]
    text, status = call(harness, "reminders.cancel", {"id": daily})
    assert status == "ok" and text.startswith("Cancelled: stretch (") and "repeated every day; no more times)." in text
    assert text.splitlines()[1] == "Still open: call mum (Fri 4 Jan 2030, 15:00)."
    assert [r["text"] for r in hub.reminders.list(include_done=True)] == ["call mum"]  # no next time, no done row
    assert call(harness, "reminders.cancel", {"id": other})[0] == "Cancelled: call mum (Fri 4 Jan 2030, 15:00).\nNo reminders are open now."
    gone, status = call(harness, "reminders.cancel", {"id": other})
    assert status != "ok" and f"no reminder with id {other!r}" in gone
    assert "reminders.cancel" not in hub.describe() and "reminders.complete(id)" in hub.describe()  # the head the specialists learned

def test_reminder_with_unreadable_due_date(harness) -> None:
    text, status = call(harness, "reminders.create", {"text": "x", "due": "next tuesday-ish"})
    assert status == "bad_arguments" and "not a time I can read" in text and "tomorrow 9am" in text


def test_files_stay_inside_the_workspace(harness, workspace: Path) -> None:
    call(harness, "python", {"code": "import os\nos.makedirs('data', exist_ok=True)\nopen('data/a.txt', 'w').write('hello')"})
    assert "data/" in call(harness, "files.list")[0]
    assert call(harness, "files.list", {"path": "data"}) == ("a.txt (5 bytes)", "ok")
    assert call(harness, "files.read", {"path": "data/a.txt"}) == ("hello", "ok")
    for bad in ("../../mol.db", "/etc/passwd", "data/../../x"):
        text, status = call(harness, "files.read", {"path": bad})
        assert status == "denied" and "outside this conversation's workspace" in text
    (workspace / "link").symlink_to("/etc")
    assert call(harness, "files.list", {"path": "link"})[1] == "denied"


def test_files_read_flags_invalid_utf8(harness, workspace: Path) -> None:
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "bin.dat").write_bytes(b"ab\xff\xfecd")
    text, status = call(harness, "files.read", {"path": "bin.dat"})
    assert status == "ok" and text.startswith("ab\ufffd\ufffdcd") and "not valid UTF-8" in text


def test_malformed_json_arguments(harness, hub: ToolHub) -> None:
    (bad,) = parse_tool_calls('<tool_call>{"name": "python", "arguments": {"code": "1",}}</tool_call>')
    text = harness.run(bad, slot="L2")
    assert text.startswith("Error: malformed tool call") and "valid JSON" in text
    row = _audit(hub)[-1]
    assert (row["tool"], row["status"], row["slot"]) == ("(unparsed)", "bad_arguments", "L2")
    assert row["arguments"] == '{"name": "python", "arguments": {"code": "1",}}'
    assert call(harness, "python", {"code": "1"}) == ("result: 1", "ok")  # the session goes on


def test_invented_tool_name(harness, hub: ToolHub) -> None:
    text, status = call(harness, "pyhton", {"code": "1"})
    assert status == "unknown_tool"
    assert "no tool named 'pyhton'" in text and "did you mean 'python'" in text and "notes.find" in text
    text, status = call(harness, "weather.today", {})
    assert status == "unknown_tool" and "did you mean" not in text


def test_bad_argument_names_and_types(harness) -> None:
    text, status = call(harness, "notes.create", {"titel": "x"})
    assert status == "bad_arguments" and "did you mean 'title'" in text and "notes.create(title: string" in text
    text, status = call(harness, "python", {"code": 42})
    assert status == "bad_arguments" and "must be a string, not int" in text
    text, status = call(harness, "notes.read", {})
    assert status == "bad_arguments" and "needs the argument 'id'" in text


def test_every_call_is_audited(harness, hub: ToolHub) -> None:
    call(harness, "python", {"code": "print('hi')"}, slot="L2")
    call(harness, "notes.create", {"title": "t"}, slot="L1")
    call(harness, "nope", {}, slot="L0")
    rows = _audit(hub)
    assert [(r["slot"], r["tool"], r["status"]) for r in rows] == [
        ("L2", "python", "ok"), ("L1", "notes.create", "ok"), ("L0", "nope", "unknown_tool"),
    ]
    assert json.loads(rows[0]["arguments"]) == {"code": "print('hi')"}
    assert rows[0]["result_chars"] == 2 and rows[0]["duration_ms"] > 0
    assert all(r["conversation_id"] == "conv" for r in rows)
    assert hub.audit.list(conversation_id="other") == []


def test_conversations_have_separate_sessions_and_workspaces(hub: ToolHub) -> None:
    a, b = hub.runner("conv-a"), hub.runner("conv-b")
    call(a, "python", {"code": "secret = 1\nopen('mine.txt', 'w').write('a')"})
    text, status = call(b, "python", {"code": "secret"})
    assert status == "error" and "NameError" in text
    assert call(b, "files.list")[0] == "(empty folder)"
    assert "mine.txt" in call(a, "files.list")[0]
    assert hub.runner("conv-a") is a


def test_idle_sessions_are_evicted_with_notice(db, mol_home: Path) -> None:
    from mol_local.harness.limits import ToolsConfig
    from tests.mol_local.harness.conftest import FAST

    hub = ToolHub(db, ToolsConfig(default_limits=FAST), home=mol_home, max_live=1)
    try:
        a, b = hub.runner("a"), hub.runner("b")
        call(a, "python", {"code": "v = 1"})
        call(b, "python", {"code": "w = 2"})  # starting b's process stops a's
        assert not a.sandbox_alive and b.sandbox_alive
        text, status = call(a, "python", {"code": "'v' in globals()"})
        assert status == "ok" and "fresh Python process" in text and "make room" in text and "result: False" in text
    finally:
        hub.close()


def test_unsafe_conversation_id_cannot_name_a_folder(hub: ToolHub) -> None:
    import pytest

    from mol_local.harness.errors import BadArguments

    with pytest.raises(BadArguments, match="cannot name a folder"):
        hub.runner("../../etc")


def test_memory_tools_are_left_out_without_a_memory_store(hub: ToolHub) -> None:
    assert not any(name.startswith("memory.") for name in hub.specs())
    assert "memory.search" not in hub.describe()


def test_description_is_stable_and_lists_enabled_tools(hub: ToolHub) -> None:
    text = hub.describe()
    assert text == hub.describe()
    assert "<tool_call>" in text and "python(code)" in text and "notes.find(query, limit?)" in text
