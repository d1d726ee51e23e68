"""Training consent, and the ONE function that yields training-eligible trajectories.

Consent is per conversation, opt-in (the default comes from HCP and is off in
the shipped profiles), revocable and timestamped: every change is a new
record and the latest one wins. Nothing else may read the timeline for
training — the trainer calls `eligible_trajectories` and nothing more.

Consent is also a property of the data. A memory carries the consent of its
sources (`memory_sources`): it is consented only while every conversation its
words came from is. Recall may put any memory in any view, but a task whose
view held a memory that is not consented is not training-eligible, and neither
is any later task of that conversation: their views held the tainted task
(verbatim or as its summary), and an answer may repeat what it recalled. The
tainted turns are excluded, not trained with the memory removed: their answers
were written with it in view, so removing it from the prompt would not remove
it from the target.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from sqlite_utils import Database

from memory.db import transaction
from memory.errors import NotFound
from memory.store import UNATTRIBUTED
from memory.timeline import new_id, now_iso

FORGOTTEN = "[forgotten]"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def hashed_id(raw: str) -> str:
    """The one training-data id hash (adapter manifests store ids only hashed): sha256 of the raw id,
    and an id that is already a sha256 hex stays as it is (`mol_local.adapters.manifest` uses this)."""
    return raw if _HEX64.match(raw) else hashlib.sha256(raw.encode("utf-8")).hexdigest()


def training_id(task_id: str) -> str:
    """The hashed id a trained adapter's manifest lists for a task (`training_data_ids`): `hashed_id("task:<id>")`."""
    return hashed_id(f"task:{task_id}")


def task_id_forms(task_id: str) -> set[str]:
    """Every form a manifest may list a task under: the training id, and raw ids the registry hashed or an old
    hand-written manifest kept as they were (`forget` matches all of them)."""
    return {training_id(task_id), hashed_id(task_id), task_id, f"task:{task_id}"}


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


def _conversation_on(db: Database, default_on: bool) -> Callable[[str], bool]:
    latest = _latest(db)
    return lambda conversation_id: latest.get(conversation_id, ("on" if default_on else "off", ""))[0] == "on"


def unconsented_memories(db: Database, *, default_on: bool = False) -> set[str]:
    """Memories some source of which has no training consent (a memory from no conversation follows
    HCP consent.default, as a conversation with no record does)."""
    on = _conversation_on(db, default_on)
    out: set[str] = set()
    for memory_id, source in db.execute(
        "select m.id, coalesce(s.conversation_id, m.conversation_id, ?) from memories m left join memory_sources s on s.memory_id = m.id",
        [UNATTRIBUTED],
    ):
        if not (default_on if source == UNATTRIBUTED else on(source)):
            out.add(memory_id)
    return out


BORROWED = "/list-edit from "  # a list turn's route raw output when it changed another conversation's list


def tainted_tasks(db: Database, *, default_on: bool = False) -> set[str]:
    """Tasks whose view held a memory without consent, or a list borrowed from a conversation without it (a list turn
    whose route says `BORROWED` + that conversation's id: its answer holds that list's items), and every later task of
    their conversation. Read at training time, so consent given or revoked later counts."""
    bad = unconsented_memories(db, default_on=default_on)
    on = _conversation_on(db, default_on)
    first: dict[str, int] = {}
    for task_id, memory_id, conversation_id, seq in db.execute(
        "select u.task_id, u.memory_id, t.conversation_id, t.seq from memory_uses u join tasks t on t.id = u.task_id"
    ):
        if memory_id in bad:
            first[conversation_id] = min(seq, first.get(conversation_id, seq))
    for raw, conversation_id, seq in db.execute(
        "select r.raw_output, t.conversation_id, t.seq from route_decisions r join tasks t on t.id = r.task_id where r.raw_output like ?",
        [BORROWED + "%"],
    ):
        if not on(raw.removeprefix(BORROWED).strip()):
            first[conversation_id] = min(seq, first.get(conversation_id, seq))
    out: set[str] = set()
    for conversation_id, seq in first.items():
        out |= {r[0] for r in db.execute("select id from tasks where conversation_id = ? and seq >= ?", [conversation_id, seq])}
    return out


def eligible_trajectories(
    db: Database, *, default_on: bool = False, slot: str | None = None, since: str | None = None
) -> Iterator[Trajectory]:
    """Every training-eligible task, oldest first: consented (and not revoked), not forgotten, committed and
    closed, and no memory without consent in its view or in an earlier task's (`tainted_tasks`).

    `default_on` is HCP `consent.default`; `since` (ISO time) limits to tasks
    closed after it, for incremental nightly runs.
    """
    on = _conversation_on(db, default_on)
    allowed = [c["id"] for c in db.query("select id from conversations") if on(c["id"])]
    tainted = tainted_tasks(db, default_on=default_on)
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
            if task["id"] in tainted:
                continue
            msgs = [
                {"role": m["role"], "content": m["content"]}
                for m in db.query("select role, content from messages where task_id = ? order by seq", [task["id"]])
            ]
            roles = {m["role"] for m in msgs}
            if not {"user", "assistant"} <= roles or any(m["content"] == FORGOTTEN for m in msgs):
                continue
            yield Trajectory(conv, task["id"], training_id(task["id"]), task["slot"], task["closed_at"], msgs, task["summary"])
