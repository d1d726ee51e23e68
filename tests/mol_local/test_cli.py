"""The CLI as a user runs it: a real `mol` subprocess, JSON shapes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

MOL = [sys.executable, "-m", "mol_local.cli"]


def run(args: list[str], home: Path, stdin: str | None = None, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1", **(env_extra or {})}
    return subprocess.run(MOL + args, capture_output=True, text=True, env=env, input=stdin, timeout=300)


@pytest.mark.slow
def test_chat_json_shape_and_continuation(mol_home: Path, test_hcp_path: Path) -> None:
    fast = {"MOL_HCP": str(test_hcp_path)}
    out = run(["chat", "--json", "What is the capital of France?"], mol_home, env_extra=fast)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert set(obj) >= {"conversation_id", "task_id", "slot", "answer", "timings"}
    assert obj["slot"] in {"L0", "L1", "L2", "L3"} and obj["answer"]
    assert {"route_ms", "answer_ms", "total_ms", "summary_ms"} <= set(obj["timings"])
    nxt = run(["chat", "--json", "--conversation", obj["conversation_id"], "And of Italy?"], mol_home, env_extra=fast)
    assert nxt.returncode == 0, nxt.stderr
    assert json.loads(nxt.stdout)["conversation_id"] == obj["conversation_id"]
    listed = json.loads(run(["chat", "--list", "--json"], mol_home, env_extra=fast).stdout)
    assert [c["id"] for c in listed] == [obj["conversation_id"]]


@pytest.mark.slow
def test_route_batch(mol_home: Path, tmp_path: Path) -> None:
    f = tmp_path / "in.jsonl"
    f.write_text('{"text": "hello", "id": 1}\n\n{"text": "write a bash script", "id": 2}\n')
    out = run(["route", "--json", "--file", str(f)], mol_home)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["id"] for r in rows] == [1, 2]
    assert all(r["slot"] in {"L0", "L1", "L2", "L3"} and r["latency_ms"] > 0 for r in rows)


def test_route_batch_bad_line(mol_home: Path, tmp_path: Path) -> None:
    f = tmp_path / "in.jsonl"
    f.write_text('{"text": "ok"}\nnot json\n')
    out = run(["route", "--json", "--file", str(f)], mol_home)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0 and ":2 is not JSON" in out.stderr


def test_missing_model_is_one_line(mol_home: Path, tmp_path: Path) -> None:
    hcp = tmp_path / "hcp.toml"
    from hcp import profile_path

    hcp.write_text(profile_path("local-default").read_text().replace("builtin:smollm2-135m", "/nowhere/model.gguf"))
    out = run(["--hcp", str(hcp), "chat", "hi"], mol_home)
    assert out.returncode == 1
    assert out.stderr.startswith("Error: Model file not found: /nowhere/model.gguf")
    assert "Traceback" not in out.stderr and out.stderr.strip().count("\n") == 0


def test_empty_message_and_unknown_conversation(mol_home: Path) -> None:
    out = run(["chat", "   "], mol_home)
    assert out.returncode == 1 and "Empty message" in out.stderr
    out = run(["chat", "--conversation", "nope", "hi"], mol_home)
    assert out.returncode == 1 and "No conversation 'nope'" in out.stderr and "Traceback" not in out.stderr


def test_malformed_hcp_is_one_line(mol_home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[runtime\nthreads = 2\n")
    out = run(["--hcp", str(bad), "chat", "hi"], mol_home)
    assert out.returncode == 1 and "not valid TOML" in out.stderr and "Traceback" not in out.stderr


def test_plain_mol_skips_subcommand_imports() -> None:
    from mol_local.cli import wants_subcommand

    assert not wants_subcommand([]) and not wants_subcommand(["--hcp", "x.toml"]) and not wants_subcommand(["--hcp=x"])
    assert wants_subcommand(["chat", "hi"]) and wants_subcommand(["--help"]) and wants_subcommand(["--hcp", "x", "route", "t"])


def test_chat_prints_the_stored_answer_when_it_is_not_what_streamed(capsys) -> None:
    """A tool loop that ended on a repeated failed call streamed markup; the person must see the words the turn stored."""
    from mol_local.cli.chat import _Out

    out = _Out(False, remote=False)
    out.token('<tool_call>{"name": "reminders.create"}</tool_call>')
    out.settle("I couldn't do that: Tue 1 Dec 2026, 17:00 has already passed")
    assert capsys.readouterr().out.endswith("\nI couldn't do that: Tue 1 Dec 2026, 17:00 has already passed")
    same = _Out(False, remote=False)
    same.token("The capital of France is Paris.")
    same.settle("The capital of France is Paris.")
    assert capsys.readouterr().out == "The capital of France is Paris."  # nothing printed twice
    worded = _Out(False, remote=False)
    worded.token("- 13:30: the dentist")
    worded.settle("- 13:30: a meeting")
    assert capsys.readouterr().out == "- 13:30: the dentist\n[the answer, as the tools left it:]\n- 13:30: a meeting"


def test_chat_says_when_code_that_streamed_was_run_and_replaced_or_only_added_to(capsys) -> None:
    """turn/code_check.py: a draft whose code failed when run is replaced by one that passes, or told what failed."""
    from mol_local.cli.chat import REDRAFTED, _Out

    failed = "```python\ndef largest(a, b):\n    return max(a, b)\n```"
    told = _Out(False, remote=False)
    told.token(failed)
    told.settle(f"{failed}\n\nI ran this and it does not work yet: largest takes 2 arguments, but the request gives 3.")
    assert capsys.readouterr().out == f"{failed}\n\nI ran this and it does not work yet: largest takes 2 arguments, but the request gives 3."
    redrafted = _Out(False, remote=False)
    redrafted.token(failed)
    redrafted.settle("```python\ndef largest(a, b, c):\n    return max(a, b, c)\n```", REDRAFTED)
    assert capsys.readouterr().out == f"{failed}\n[the code was run and failed; the answer as checked:]\n```python\ndef largest(a, b, c):" \
        "\n    return max(a, b, c)\n```"


def test_chat_streams_the_words_and_never_the_tool_call_markup(capsys) -> None:
    """`mol chat "Remind me …"` printed `<tool_call>{…}</tool_call>` before the [reminders.create → …] line."""
    from mol_local.cli.chat import HideCalls, _Out

    pieces = ["Sure.", "<tool", '_call>{"name": "reminders.create", "arguments": {}}</tool', "_call>", "Reminder set", " <3 for 9:00", "<"]
    hide = HideCalls()
    assert "".join(hide.feed(p) for p in pieces) + hide.rest() == "Sure.Reminder set <3 for 9:00<"
    cut = HideCalls()
    assert cut.feed("Let me look.<tool_call>{\"id\": \"000") + cut.rest() == "Let me look."  # an unfinished call shows nothing
    out = _Out(False, remote=False)
    for p in pieces[:-1]:
        out.token(p)
    out.flush()
    out.settle("Sure.Reminder set <3 for 9:00")
    assert capsys.readouterr().out == "Sure.Reminder set <3 for 9:00"  # the words once, no markup


@pytest.mark.slow
def test_chat_prints_a_view_as_text_never_its_json(mol_home: Path, test_hcp_path: Path) -> None:
    """`mol chat "Make a checklist …"` printed the document's JSON; the terminal gets the title and the items."""
    out = run(["chat", "--slot", "L3", "Make a checklist for my ski trip: gloves, goggles, helmet"], mol_home,
              env_extra={"MOL_HCP": str(test_hcp_path)})
    assert out.returncode == 0, out.stderr
    assert '"components"' not in out.stdout and "{" not in out.stdout, out.stdout
    as_json = run(["chat", "--json", "--slot", "L3", "Make a checklist for my ski trip: gloves, goggles, helmet"], mol_home,
                  env_extra={"MOL_HCP": str(test_hcp_path)})
    doc = json.loads(as_json.stdout)["document"]
    if doc is not None:  # the same request on the same model: the text carries the document's title and labels
        from mol_local.genui.text import document_text

        assert out.stdout.strip() == document_text(doc).strip() and "open this conversation in the app" in out.stderr
    else:
        assert "could not build" in out.stdout


def test_document_text_shows_the_title_components_and_bound_items() -> None:
    from mol_local.genui.text import document_text

    doc = {"title": "Ski trip", "components": [{"id": "c", "type": "Checklist", "label": "Pack", "bind": "items"},
                                               {"id": "t", "type": "Timer", "label": "Wax", "seconds": 300, "bind": "left"},
                                               {"id": "b", "type": "Button", "label": "More", "action": "more"}],
           "state": {"items": [{"label": "Gloves", "done": True}, {"label": "Goggles", "done": False}], "left": 300}}
    assert document_text(doc).splitlines() == ["Ski trip", "Pack", "  ☑ Gloves", "  ☐ Goggles", "Wax: timer, 5:00", "[ More ]"]
    long = {"title": "Camping", "components": [{"id": "c", "type": "Checklist", "label": "Pack", "bind": "items"}],
            "state": {"items": [{"label": f"Item {i}", "done": False} for i in range(13)]}}
    assert document_text(long).splitlines()[-2:] == ["  ☐ Item 11", "  … and 1 more"]  # mol chat had cut the 13th without a word


def test_a_view_bound_to_the_reminders_shows_them_in_the_terminal(mol_home: Path) -> None:
    """`mol chat "Show me my reminders"` printed "My reminders" and "…": the live rows were only in the app."""
    from memory.db import open_db
    from mol_local.cli.chat import tool_result_text
    from mol_local.genui.binding import DataPort
    from mol_local.genui.text import document_text

    port = DataPort(open_db(mol_home / "t.db"))
    port.reminders.clock = lambda: datetime(2026, 12, 1, 9, 0)  # the due times below are still to come (it failed on 4 Dec at 12:40)
    doc = {"title": "Reminders", "components": [{"id": "c", "type": "Checklist", "label": "My reminders", "source": "reminders"}]}
    assert document_text(doc, port.text_rows).splitlines() == ["Reminders", "My reminders", "  (no reminders yet)"]
    port.reminders.create("pay the rent", "2026-12-07T07:30")
    done = port.reminders.create("take the bins out", "2026-12-04T08:00")
    port.reminders.complete(done["id"])
    lines = document_text(doc, port.text_rows).splitlines()
    assert lines[2].startswith("  ☐ pay the rent · Mon 7 Dec 2026, 07:30") and lines[3].startswith("  ☑ take the bins out")
    assert tool_result_text("a\nb\nc") == "a\n  b\n  c"  # a list showed only its first line
    assert tool_result_text("\n".join(map(str, range(10)))).endswith("7\n  … 2 more lines")
