"""The append-only conversation timeline: conversations, tasks, messages, routes, summaries.

A user turn is written in one transaction (`commit_turn`) or not at all, so a
turn that was cancelled or crashed before commit never enters history.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import NotFound
from memory.text import clean_text


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class MessageRecord:
    role: str
    content: str


@dataclass
class TaskRecord:
    id: str
    conversation_id: str
    seq: int
    slot: str
    status: str = "open"
    messages: list[MessageRecord] = field(default_factory=list)
    summary: str | None = None


@dataclass
class RouteRecord:
    slot: str
    mode: str
    raw_output: str
    fallback: bool
    latency_ms: float


@dataclass
class TurnRecord:
    """Everything one user turn adds; written atomically by `Timeline.commit_turn`."""

    conversation_id: str
    conversation_title: str
    task: TaskRecord
    task_is_new: bool
    new_messages: list[MessageRecord]
    first_message_seq: int
    route: RouteRecord | None = None
    summary: str | None = None
    summary_tokens: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    # run inside the commit transaction with the new messages' ids (memories, memory uses)
    extra_writes: list[Callable[[Database, list[str]], None]] = field(default_factory=list)
    # the conversation's revision the writer's history was loaded at (None: new, or unknown)
    base_revision: int | None = None


@dataclass(frozen=True)
class Committed:
    """What `commit_turn` wrote: the conversation's new revision, and whether the writer's history was stale
    (another process committed to this conversation since it was loaded: reload it)."""

    revision: int
    stale: bool


class Timeline:
    def __init__(self, db: Database) -> None:
        self.db = db

    def conversation_exists(self, conversation_id: str) -> bool:
        return bool(list(self.db.query("select 1 from conversations where id = ?", [conversation_id])))

    def require(self, conversation_id: str) -> None:
        if not self.conversation_exists(conversation_id):
            raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list`")

    def list_conversations(self, *, every_source: bool = False) -> list[dict]:
        """Newest first; API clients' conversations (source "api") only with `every_source`."""
        where = "" if every_source else "where source != 'api' "
        return list(self.db.query(f"select id, title, created_at, updated_at, source from conversations {where}order by updated_at desc"))

    def revision(self, conversation_id: str) -> int | None:
        """The conversation's write counter (None when it is not stored, e.g. forgotten)."""
        row = self.db.execute("select revision from conversations where id = ?", [conversation_id]).fetchone()
        return None if row is None else int(row[0] or 0)

    def load_tasks(self, conversation_id: str) -> list[TaskRecord]:
        """All committed tasks of a conversation, in order, with their messages and summaries."""
        tasks: dict[str, TaskRecord] = {}
        for row in self.db.query(
            "select t.id, t.seq, t.slot, t.status, s.text as summary from tasks t "
            "left join summaries s on s.task_id = t.id where t.conversation_id = ? order by t.seq",
            [conversation_id],
        ):
            tasks[row["id"]] = TaskRecord(
                row["id"], conversation_id, row["seq"], row["slot"], row["status"], [], row["summary"]
            )
        for row in self.db.query(
            "select m.task_id, m.role, m.content from messages m join tasks t on t.id = m.task_id "
            "where m.conversation_id = ? order by t.seq, m.seq",
            [conversation_id],
        ):
            tasks[row["task_id"]].messages.append(MessageRecord(row["role"], row["content"]))
        return list(tasks.values())

    def commit_turn(self, turn: TurnRecord) -> Committed:
        """Write the turn in one transaction. Numbers come from the database inside it, not from the
        writer's memory: a new task gets the next `seq` of the conversation, new messages the next
        message seq of their task (`turn.task.seq` and `turn.first_message_seq` are set to them), so two
        processes writing one conversation both keep their turns, in commit order."""
        stamp = now_iso()
        task = turn.task
        with transaction(self.db) as db:
            rev = self.revision(turn.conversation_id)
            if rev is None:
                db["conversations"].insert(
                    {"id": turn.conversation_id, "title": turn.conversation_title, "created_at": stamp, "updated_at": stamp, "revision": 1}
                )
            else:
                db.execute("update conversations set updated_at = ?, revision = revision + 1 where id = ?", [stamp, turn.conversation_id])
            is_new = turn.task_is_new or not db.execute("select 1 from tasks where id = ?", [task.id]).fetchone()
            if is_new:  # a held task another process forgot is written again as a new one
                task.seq = db.execute(
                    "select coalesce(max(seq) + 1, 0) from tasks where conversation_id = ?", [turn.conversation_id]
                ).fetchone()[0]
                turn.first_message_seq = 0
            else:
                turn.first_message_seq = db.execute(
                    "select coalesce(max(seq) + 1, 0) from messages where task_id = ?", [task.id]
                ).fetchone()[0]
            stale = turn.base_revision is not None and (rev or 0) != turn.base_revision
            row = {
                "id": task.id,
                "conversation_id": turn.conversation_id,
                "seq": task.seq,
                "slot": task.slot,
                "status": task.status,
                "closed_at": stamp if task.status == "closed" else None,
                "timings": json.dumps(turn.timings),
            }
            if is_new:
                db["tasks"].insert({**row, "created_at": stamp})
            else:
                db["tasks"].update(task.id, row)
            message_ids = [new_id() for _ in turn.new_messages]
            db["messages"].insert_all(
                {
                    "id": message_ids[i],
                    "conversation_id": turn.conversation_id,
                    "task_id": task.id,
                    "seq": turn.first_message_seq + i,
                    "role": m.role,
                    "content": clean_text(m.content),  # tool output may carry invalid UTF-8
                    "created_at": stamp,
                }
                for i, m in enumerate(turn.new_messages)
            )
            if turn.route is not None:
                r = turn.route
                db["route_decisions"].insert(
                    {
                        "task_id": task.id,
                        "slot": r.slot,
                        "mode": r.mode,
                        "raw_output": r.raw_output,
                        "fallback": int(r.fallback),
                        "latency_ms": r.latency_ms,
                        "created_at": stamp,
                    }
                )
            if turn.summary is not None:
                db["summaries"].insert(
                    {"task_id": task.id, "slot": task.slot, "text": turn.summary, "tokens": turn.summary_tokens, "created_at": stamp}
                )
            for write in turn.extra_writes:
                write(db, message_ids)
        return Committed((rev or 0) + 1, stale)

    def route_decision(self, task_id: str) -> dict | None:
        rows = list(self.db.query("select * from route_decisions where task_id = ?", [task_id]))
        return rows[0] if rows else None

    # -- used by the app's conversation sidebar ------------------------------
    def rename_conversation(self, conversation_id: str, title: str) -> None:
        """Set a conversation's title (the app trims it; an empty title is refused there)."""
        self.require(conversation_id)
        with transaction(self.db) as db:
            db["conversations"].update(conversation_id, {"title": title})

    def search_conversations(self, needle: str) -> list[dict]:
        """Conversations whose title or any message contains `needle` (case-insensitive), newest first."""
        like = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return list(
            self.db.query(
                "select id, title, created_at, updated_at from conversations c where c.source != 'api' and (c.title like :q escape '\\' "
                "or exists (select 1 from messages m where m.conversation_id = c.id and m.content like :q escape '\\')) "
                "order by updated_at desc",
                {"q": like},
            )
        )

    def consent_states(self, *, default_on: bool = False) -> dict[str, bool]:
        """conversation id -> training consent on/off (the latest record, else HCP consent.default)."""
        from memory.consent import consent_overview

        return {s.conversation_id: s.on for s in consent_overview(self.db, default_on=default_on)}

    def set_consent(self, conversation_id: str, on: bool) -> None:
        """Record a consent change (a new timestamped record; the latest wins)."""
        from memory.consent import set_consent

        set_consent(self.db, conversation_id, on)
