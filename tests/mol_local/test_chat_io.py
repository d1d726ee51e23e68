"""`mol chat export/import` on the real SQLite store: formats, round trip, consent off on import, the source column,
and every bad import file as one line with nothing stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memory.consent import consent_state, set_consent
from memory.db import open_db
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, Timeline, TurnRecord, new_id
from memory.transfer import source_writer
from mol_local.chat_io import MAX_MESSAGE_CHARS, TransferError, export_data, import_file, parse_import, render
from mol_local.harness.store import AuditEntry, AuditLog


@pytest.fixture
def db(tmp_path: Path):
    database = open_db(tmp_path / "mol.db")
    yield database
    database.close()


def commit(db, conversation: str | None, user: str, answer: str, *, slot: str = "L0", source: str = "") -> str:
    cid = conversation or new_id()
    task = TaskRecord(new_id(), cid, 0, slot, "closed")
    record = TurnRecord(cid, user[:80], task, True, [MessageRecord("user", user), MessageRecord("assistant", answer)], 0,
                        route=RouteRecord(slot, "grammar", slot, False, 12.5), summary=f"I answered {user!r}.", summary_tokens=6,
                        timings={"answer_ms": 40.0, "completion_tokens": 9})
    if source:
        record.extra_writes.append(source_writer(cid, source))
    Timeline(db).commit_turn(record)
    return cid


def count(db) -> int:
    return db.execute("select count(*) from conversations").fetchone()[0]


def test_export_carries_everything_and_imports_back_with_consent_off(db, tmp_path: Path) -> None:
    cid = commit(db, None, "What is the capital of France?", "Paris.")
    commit(db, cid, "Write a loop", "for i in range(3): print(i)", slot="L2")
    AuditLog(db).record(AuditEntry(conversation_id=cid, slot="L2", tool="python", arguments='{"code": "1"}', status="ok",
                                   result_chars=1, duration_ms=3.0))
    set_consent(db, cid, True)
    data = export_data(db, [cid])[0]
    assert data["consent"] == "on" and [t["slot"] for t in data["tasks"]] == ["L0", "L2"]
    first = data["tasks"][0]
    assert first["route"] == {"slot": "L0", "mode": "grammar", "raw_output": "L0", "fallback": False, "latency_ms": 12.5}
    assert first["summary"]["text"] == "I answered 'What is the capital of France?'." and first["timings"]["answer_ms"] == 40.0
    assert data["tool_calls"][0]["tool"] == "python"
    path = tmp_path / "out.json"
    path.write_text(render([data], "json"), encoding="utf-8")
    [new] = import_file(db, path, slot="L0")
    assert new != cid and not consent_state(db, new).on  # consent never travels with an import
    again = export_data(db, [new])[0]
    assert again["source"] == "import"
    strip = lambda c: [(t["slot"], [(m["role"], m["content"]) for m in t["messages"]], t["summary"]["text"], t["route"]["mode"]) for t in c["tasks"]]  # noqa: E731
    assert strip(again) == strip(data)
    jsonl = tmp_path / "out.jsonl"
    jsonl.write_text(render(export_data(db, [cid, new]), "jsonl"), encoding="utf-8")
    assert len(import_file(db, jsonl, slot="L0")) == 2
    md = render([data], "md")
    assert "# What is the capital of France?" in md and "**You**:" in md and "**L2**:" in md and "> Summary:" in md


def test_openai_messages_import(db, tmp_path: Path) -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"},
                {"role": "user", "content": [{"type": "text", "text": "Bye"}]}, {"role": "assistant", "content": "Bye!"}]
    for i, shape in enumerate(({"messages": messages}, messages)):
        path = tmp_path / f"openai{i}.json"
        path.write_text(json.dumps(shape), encoding="utf-8")
        [cid] = import_file(db, path, slot="L1")
        tasks = Timeline(db).load_tasks(cid)
        assert [(t.slot, [(m.role, m.content) for m in t.messages]) for t in tasks] == [
            ("L1", [("user", "Hi"), ("assistant", "Hello!")]), ("L1", [("user", "Bye"), ("assistant", "Bye!")])]
        assert not consent_state(db, cid).on


def bad_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text, words", [
    ('{"foo": 1}', "is not a mol export"),
    ("hello, world", "neither JSON nor JSON lines"),
    ("", "the file is empty"),
    ('{"format": "mol-conversations", "version": 9, "conversations": []}', "format version 9"),
    ('{"format": "mol-conversations", "version": 1, "conversations": [{"id": "a", "tasks": []}, {"id": "a", "tasks": []}]}', "appears twice"),
    ('{"format": "mol-conversations", "version": 1, "conversations": [{"id": "a", "tasks": [{"slot": "L0", "messages": '
     '[{"id": "m1", "role": "user", "content": "x"}, {"id": "m1", "role": "assistant", "content": "y"}]}]}]}', "message id 'm1' appears twice"),
    ('{"messages": [{"role": "wizard", "content": "x"}]}', "role must be one of"),
    ('{"messages": []}', "non-empty list"),
])
def test_bad_import_files_are_one_line_and_store_nothing(db, tmp_path: Path, text: str, words: str) -> None:
    commit(db, None, "keep me", "kept")
    with pytest.raises(TransferError, match=words) as info:
        import_file(db, bad_file(tmp_path, text), slot="L0")
    assert "\n" not in str(info.value) and count(db) == 1


def test_a_huge_message_is_refused_and_nothing_half_stored(db, tmp_path: Path) -> None:
    good = {"id": "ok", "tasks": [{"slot": "L0", "messages": [{"role": "user", "content": "fine"}]}]}
    huge = {"id": "big", "tasks": [{"slot": "L0", "messages": [{"role": "user", "content": "x" * (MAX_MESSAGE_CHARS + 1)}]}]}
    path = bad_file(tmp_path, json.dumps({"format": "mol-conversations", "version": 1, "conversations": [good, huge]}))
    with pytest.raises(TransferError, match="the limit is 1,048,576 — split or cut it"):
        import_file(db, path, slot="L0")
    assert count(db) == 0  # the good first conversation was not stored either
    with open(tmp_path / "100mb.json", "w", encoding="utf-8") as fh:  # a 100 MB message: refused on its size before it is read
        fh.write('{"messages": [{"role": "user", "content": "')
        fh.write("y" * (100 << 20))
        fh.write('"}]}')
    with pytest.raises(TransferError, match="over the 67,108,864 limit"):
        import_file(db, tmp_path / "100mb.json", slot="L0")
    with pytest.raises(TransferError, match="is a folder"):
        import_file(db, tmp_path, slot="L0")


def test_api_conversations_are_kept_out_of_the_apps_list(db) -> None:
    app = commit(db, None, "from the app", "ok")
    api = commit(db, None, "from a client", "ok", source="api")
    later = commit(db, app, "an API client continues an app conversation", "ok", source="api")
    timeline = Timeline(db)
    assert [r["id"] for r in timeline.list_conversations()] == [app] and later == app
    assert {r["id"]: r["source"] for r in timeline.list_conversations(every_source=True)} == {app: "app", api: "api"}
    assert timeline.search_conversations("from a client") == []


def test_parse_import_takes_jsonl_of_openai_objects() -> None:
    raw = "\n".join(json.dumps({"messages": [{"role": "user", "content": f"q{i}"}, {"role": "assistant", "content": f"a{i}"}]}) for i in range(3))
    assert [title for title, _ in parse_import(raw, slot="L0")] == ["q0", "q1", "q2"]


@pytest.mark.slow
def test_cli_export_and_import(tmp_path: Path, mol_home: Path) -> None:
    from mol_local.paths import db_path

    database = open_db(db_path())
    cid = commit(database, None, "Hello CLI", "Hi!")
    database.close()
    env = {**os.environ, "MOL_HOME": str(mol_home), "HF_HUB_OFFLINE": "1"}
    run = lambda *a: subprocess.run([sys.executable, "-m", "mol_local.cli", "chat", *a], capture_output=True, text=True, env=env, timeout=120)  # noqa: E731
    md = run("export", cid, "--format", "md")
    assert md.returncode == 0 and "**You**:\n\nHello CLI" in md.stdout
    out = tmp_path / "all.json"
    assert run("export", "--all", "--out", str(out)).returncode == 0
    imported = run("import", str(out))
    assert imported.returncode == 0 and "training consent is off" in imported.stderr
    both = run("export")
    assert both.returncode == 2 and "give a conversation ID or --all" in both.stderr
    missing = run("export", "nope")
    assert missing.returncode == 1 and "No conversation 'nope'" in missing.stderr and "Traceback" not in missing.stderr
    listed = run("--list", "--all")
    assert listed.stdout.count("Hello CLI") == 2 and "[import]" in listed.stdout
