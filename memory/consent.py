"""Training consent, and the ONE function that yields training-eligible trajectories.

Consent is per conversation, opt-in (the default comes from HCP and is off in
the shipped profiles), revocable and timestamped: every change is a new
record and the latest one wins. Nothing else may read the timeline for
training — the trainer calls `eligible_trajectories` and nothing more.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import NotFound
from memory.timeline import new_id, now_iso

FORGOTTEN = "[forgotten]"


def training_id(task_id: str) -> str:
    """The hashed id a trained adapter's manifest lists for a task (`training_data_ids`)."""
    return hashlib.sha256(f"task:{task_id}".encode()).hexdigest()


@dataclass(frozen=True)
class ConsentState:
    conversation_id: str
    on: bool
    since: str | None  # when the deciding record was written; None when the default applies
    source: str  # "record" | "default"

    def as_dict(self) -> dict:
        return {"conversation_id": self.conversation_id, "consent": "on" if self.on else "off", "since": self.since, "source": self.source}


@dataclass(frozen=True)
class Trajectory:
    conversation_id: str
    task_id: str
    training_id: str
    slot: str
    created_at: str
    messages: list[dict] = field(default_factory=list)  # [{"role", "content"}] in order
    summary: str | None = None


def set_consent(db: Database, conversation_id: str, on: bool) -> ConsentState:
    if not list(db.query("select 1 from conversations where id = ?", [conversation_id])):
        raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list`")
    stamp = now_iso()
    with transaction(db) as tx:
        tx["consent_records"].insert({"id": new_id(), "conversation_id": conversation_id, "state": "on" if on else "off", "created_at": stamp})
    return ConsentState(conversation_id, on, stamp, "record")


def _latest(db: Database) -> dict[str, tuple[str, str]]:
    """conversation id -> (state, created_at) of its latest consent record."""
    rows = db.query(
        "select conversation_id, state, created_at from consent_records r where rowid = "
        "(select max(rowid) from consent_records where conversation_id = r.conversation_id)"
    )
    return {r["conversation_id"]: (r["state"], r["created_at"]) for r in rows}


def consent_state(db: Database, conversation_id: str, *, default_on: bool = False) -> ConsentState:
    if not list(db.query("select 1 from conversations where id = ?", [conversation_id])):
        raise NotFound(f"No conversation {conversation_id!r} — list them with `mol chat --list`")
    latest = _latest(db).get(conversation_id)
    if latest is None:
        return ConsentState(conversation_id, default_on, None, "default")
    return ConsentState(conversation_id, latest[0] == "on", latest[1], "record")


def consent_overview(db: Database, *, default_on: bool = False) -> list[ConsentState]:
    latest = _latest(db)
    out = []
    for row in db.query("select id from conversations order by created_at"):
        rec = latest.get(row["id"])
        out.append(
            ConsentState(row["id"], default_on, None, "default") if rec is None else ConsentState(row["id"], rec[0] == "on", rec[1], "record")
        )
    return out


def eligible_trajectories(
    db: Database, *, default_on: bool = False, slot: str | None = None, since: str | None = None
) -> Iterator[Trajectory]:
    """Every training-eligible task, oldest first: consented (and not revoked), not forgotten, committed and closed.

    `default_on` is HCP `consent.default`; `since` (ISO time) limits to tasks
    closed after it, for incremental nightly runs.
    """
    latest = _latest(db)
    allowed = [c["id"] for c in db.query("select id from conversations") if latest.get(c["id"], ("on" if default_on else "off", ""))[0] == "on"]
    for conv in allowed:
        sql = (
            "select t.id, t.slot, t.closed_at, s.text as summary from tasks t left join summaries s on s.task_id = t.id "
            "where t.conversation_id = ? and t.status = 'closed' "
            "and t.id not in (select task_id from forgotten_tasks)"
        )
        args: list = [conv]
        if slot:
            sql += " and t.slot = ?"
            args.append(slot)
        if since:
            sql += " and t.closed_at > ?"
            args.append(since)
        for task in db.query(sql + " order by t.seq", args):
            msgs = [
                {"role": m["role"], "content": m["content"]}
                for m in db.query("select role, content from messages where task_id = ? order by seq", [task["id"]])
            ]
            roles = {m["role"] for m in msgs}
            if not {"user", "assistant"} <= roles or any(m["content"] == FORGOTTEN for m in msgs):
                continue
            yield Trajectory(conv, task["id"], training_id(task["id"]), task["slot"], task["closed_at"], msgs, task["summary"])
