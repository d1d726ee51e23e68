"""`mol memory ...` and `mol consent ...` through the real click app (in-process: one model load for the file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mol_local.cli import cli, import_commands

import_commands()


def mol(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_add_search_list_forget_reindex(mol_home: Path, tmp_path: Path) -> None:
    code, out, _ = mol("memory", "add", "--json", "My sister Ana is allergic to peanuts")
    assert code == 0
    first = json.loads(out)
    assert set(first) == {"id", "text"} and first["text"] == "My sister Ana is allergic to peanuts"
    lines = [{"text": "I prefer aisle seats on long flights"}, {"text": "Dentist on Friday at 3pm", "kind": "event"}]
    f = tmp_path / "m.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    code, out, _ = mol("memory", "add", "--file", str(f), "--json")
    added = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [a["text"] for a in added] == [x["text"] for x in lines]
    code, out, _ = mol("memory", "search", "--k", "2", "--json", "what can Ana not eat")
    hits = json.loads(out)
    assert code == 0 and len(hits) == 2 and hits[0]["id"] == first["id"]
    assert set(hits[0]) == {"id", "text", "score", "said_at"} and all(-1.0 <= h["score"] <= 1.0 for h in hits)  # fused order, cosine scores
    code, out, _ = mol("memory", "list", "--json")
    assert [m["id"] for m in json.loads(out)] == [first["id"]] + [a["id"] for a in added]
    code, out, _ = mol("memory", "forget", "--query", "dentist", "--json")
    assert code == 0 and [m["id"] for m in json.loads(out)["memories"]] == [added[1]["id"]]
    code, out, _ = mol("memory", "search", "--k", "5", "--json", "dentist appointment")
    assert added[1]["id"] not in {h["id"] for h in json.loads(out)}
    code, out, _ = mol("memory", "reindex", "--json")
    assert code == 0 and json.loads(out)["count"] == 2


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["memory", "add"], None, "Give either TEXT or --file"),
        (["memory", "add", "x" * 50_000], None, "at most 2000"),
        (["memory", "add", "   "], None, "Empty memory"),
        (["memory", "add", "--file", "{f}"], b'{"text": "fine"}\n{"text": "bad \xff byte"}\n', "line 2 is not valid UTF-8"),
        (["memory", "add", "--file", "{f}"], b'{"text": "fine"}\nnot json\n', "line 2 is not JSON"),
        (["memory", "add", "--file", "{f}"], b'{"note": "no text key"}\n', 'has no "text" string'),
        (["memory", "add", "--file", "{f}"], b"", "holds no memories"),
        (["memory", "add", "--file", "{missing}"], None, "Cannot read"),
        (["memory", "forget"], None, "Say what to forget"),
        (["memory", "forget", "--all"], None, "add --yes"),
        (["memory", "forget", "no-such-id"], None, "No memory 'no-such-id'"),
        (["memory", "forget", "--conversation", "nope"], None, "No conversation 'nope'"),
        (["consent", "on"], None, "needs --conversation ID"),
        (["consent", "off", "--conversation", "nope"], None, "No conversation 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_adds_nothing(mol_home: Path, tmp_path: Path, args, content, message) -> None:
    f = tmp_path / "in.jsonl"
    if content is not None:
        f.write_bytes(content)
    args = [a.replace("{f}", str(f)).replace("{missing}", str(tmp_path / "missing.jsonl")) for a in args]
    code, out, err = mol(*args)
    assert code == 1 and out == ""
    assert err.startswith("Error: ") and message in err and err.count("\n") == 1
    assert mol("memory", "list", "--json")[1].strip() == "[]"


def test_newer_schema_is_refused_by_the_cli(mol_home: Path) -> None:
    from memory.db import open_db

    db = open_db(mol_home / "mol.db")
    db["_sqlite_migrations"].insert({"migration_set": "mol-local", "name": "m999_from_the_future", "applied_at": "2030-01-01"})
    db.close()
    code, _, err = mol("memory", "list")
    assert code == 1 and "newer mol-local" in err and "upgrade mol-local" in err


def test_consent_on_off_status(runtime) -> None:
    from tests.memory.conftest import commit_turn

    commit_turn(runtime.db, "conv-1", "hello", "hi")
    code, out, _ = mol("consent", "status", "--json")
    assert json.loads(out) == {
        "default": "off",
        "conversations": [{"conversation_id": "conv-1", "consent": "off", "since": None, "source": "default"}],
    }
    code, out, _ = mol("consent", "on", "--conversation", "conv-1", "--json")
    assert code == 0 and json.loads(out)["consent"] == "on" and json.loads(out)["since"]
    mol("consent", "off", "--conversation", "conv-1")
    code, out, _ = mol("consent", "status", "--conversation", "conv-1", "--json")
    assert json.loads(out)["conversations"][0]["consent"] == "off"


def test_pin_and_unpin_print_the_memory(mol_home: Path) -> None:
    first = json.loads(mol("memory", "add", "--json", "I prefer aisle seats")[1])
    second = json.loads(mol("memory", "add", "--json", "My sister is called Ana")[1])
    code, out, _ = mol("memory", "pin", second["id"], "--json")
    pinned = json.loads(out)
    assert code == 0 and pinned["id"] == second["id"] and pinned["pinned"] is True and pinned["pinned_at"]
    assert set(pinned) == {"id", "text", "kind", "origin", "conversation_id", "source_message_id", "pinned", "created_at", "updated_at", "pinned_at", "said_at"}
    code, out, _ = mol("memory", "list", "--json")
    assert [m["id"] for m in json.loads(out)] == [second["id"], first["id"]]
    code, out, _ = mol("memory", "list")
    assert out.splitlines()[0].startswith(f"{second['id']}  📌")
    code, out, _ = mol("memory", "unpin", second["id"], "--json")
    assert code == 0 and json.loads(out)["pinned"] is False and json.loads(out)["pinned_at"] is None
    code, out, err = mol("memory", "pin", "no-such-id")
    assert code == 1 and out == "" and err.startswith("Error: No memory 'no-such-id'")


def test_kind_applies_to_every_line_of_a_file_without_its_own(mol_home: Path, tmp_path: Path) -> None:
    """`mol memory add --kind said --file F` stored every line as a fact: `--kind` was ignored for a file."""
    f = tmp_path / "said.jsonl"
    f.write_text(json.dumps({"text": "I lent my ladder to Priya"}) + "\n" + json.dumps({"text": "Gym on Monday", "kind": "event"}) + "\n",
                 encoding="utf-8")
    code, _, _ = mol("memory", "add", "--kind", "said", "--file", str(f))
    code, out, _ = mol("memory", "list", "--said", "--json")
    assert code == 0 and sorted(m["kind"] for m in json.loads(out)) == ["event", "said"]
