"""Conversations out of and into the store, whole: what `mol chat export/import` read and write.

`read_conversation` gathers one conversation with everything the timeline
holds for it (tasks with timings, route decisions, summaries, messages, and the
tool calls of its audit log). `write_conversation` stores an imported one in a
single transaction under fresh ids, with a consent record of "off": an import
never brings training consent with it, and a failure leaves nothing behind.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import NotFound


def _new_id() -> str:
    return uuid.uuid4().hex


def _timings(raw: Any) -> dict:
    try:
        value = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def read_conversation(db: Database, conversation_id: str) -> dict[str, Any]:
    """One conversation as plain data (ids and timestamps as stored)."""
    rows = list(db.query("select * from conversations where id = ?", [conversation_id]))
    if not rows:
        raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list --all`")
    conv = rows[0]
    tasks = []
    for t in db.query("select * from tasks where conversation_id = ? order by seq", [conversation_id]):
        route = next(iter(db.query("select slot, mode, raw_output, fallback, latency_ms from route_decisions where task_id = ?", [t["id"]])), None)
        summary = next(iter(db.query("select text, tokens from summaries where task_id = ?", [t["id"]])), None)
        messages = [dict(m) for m in db.query("select id, seq, role, content, created_at from messages where task_id = ? order by seq", [t["id"]])]
        tasks.append({
            "id": t["id"], "seq": t["seq"], "slot": t["slot"], "status": t["status"], "created_at": t["created_at"],
            "closed_at": t["closed_at"], "timings": _timings(t["timings"]),
            "route": None if route is None else {**route, "fallback": bool(route["fallback"])},
            "summary": summary, "messages": messages,
        })
    calls = []
    if db["tool_calls"].exists():
        calls = [dict(r) for r in db.query(
            "select tool, slot, arguments, status, result_chars, duration_ms, created_at from tool_calls where conversation_id = ? order by created_at",
            [conversation_id])]
    consent = next(iter(db.query("select state from consent_records where conversation_id = ? order by rowid desc limit 1",
                                 [conversation_id])), None) if db["consent_records"].exists() else None
    return {
        "id": conv["id"], "title": conv["title"], "created_at": conv["created_at"], "updated_at": conv["updated_at"],
        "source": conv.get("source") or "app", "consent": (consent or {}).get("state", "off"), "tasks": tasks, "tool_calls": calls,
    }


@dataclass
class ImportedTask:
    slot: str
    messages: list[tuple[str, str]]  # (role, content)
    summary: str | None = None
    route: dict[str, Any] | None = None
    timings: dict[str, Any] = field(default_factory=dict)
    status: str = "closed"


def write_conversation(db: Database, title: str, tasks: list[ImportedTask], *, stamp: str, source: str = "import") -> str:
    """Store one imported conversation (fresh ids, consent off) in one transaction; its new id."""
    conversation_id = _new_id()
    columns = set(db["conversations"].columns_dict)
    with transaction(db) as tx:
        row: dict[str, Any] = {"id": conversation_id, "title": title[:200], "created_at": stamp, "updated_at": stamp}
        if "source" in columns:
            row["source"] = source
        tx["conversations"].insert(row)
        for seq, task in enumerate(tasks):
            task_id = _new_id()
            tx["tasks"].insert({"id": task_id, "conversation_id": conversation_id, "seq": seq, "slot": task.slot, "status": task.status,
                                "created_at": stamp, "closed_at": stamp if task.status == "closed" else None,
                                "timings": json.dumps(task.timings)})
            tx["messages"].insert_all(
                {"id": _new_id(), "conversation_id": conversation_id, "task_id": task_id, "seq": i, "role": role, "content": content,
                 "created_at": stamp}
                for i, (role, content) in enumerate(task.messages)
            )
            if task.route is not None:
                r = task.route
                tx["route_decisions"].insert({"task_id": task_id, "slot": r.get("slot", task.slot), "mode": r.get("mode", "import"),
                                              "raw_output": r.get("raw_output", ""), "fallback": int(bool(r.get("fallback"))),
                                              "latency_ms": float(r.get("latency_ms") or 0.0), "created_at": stamp})
            if task.summary:
                tx["summaries"].insert({"task_id": task_id, "slot": task.slot, "text": task.summary, "tokens": 0, "created_at": stamp})
        tx["consent_records"].insert({"id": _new_id(), "conversation_id": conversation_id, "state": "off", "created_at": stamp})
    return conversation_id


def source_writer(conversation_id: str, source: str):
    """An extra write for a turn's commit: the source of a conversation this commit started (see
    m009_add_conversation_source); one that already had tasks keeps its own (an app conversation continued
    by an API client stays in the app's list)."""

    def write(db: Database, _message_ids: list[str]) -> None:
        db.execute("update conversations set source = ? where id = ? and (select count(*) from tasks where conversation_id = ?) <= 1",
                   [source, conversation_id, conversation_id])

    return write
