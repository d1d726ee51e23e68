"""Named schema migrations. Released functions are never edited: add a new one.

Applied in exactly one place: `memory.db.open_db()`.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("mol-local")


@migrations()
def m001_create_timeline(db: Database) -> None:
    db["conversations"].create(
        {"id": str, "title": str, "created_at": str, "updated_at": str},
        pk="id",
    )
    db["tasks"].create(
        {
            "id": str,
            "conversation_id": str,
            "seq": int,
            "slot": str,
            "status": str,  # open | closed
            "created_at": str,
            "closed_at": str,
            "timings": str,  # JSON: route/answer/summary ms, token counts
        },
        pk="id",
        foreign_keys=[("conversation_id", "conversations", "id")],
    )
    db["messages"].create(
        {
            "id": str,
            "conversation_id": str,
            "task_id": str,
            "seq": int,
            "role": str,  # user | assistant | tool
            "content": str,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("conversation_id", "conversations", "id"), ("task_id", "tasks", "id")],
    )
    db["route_decisions"].create(
        {
            "task_id": str,
            "slot": str,
            "mode": str,
            "raw_output": str,
            "fallback": int,
            "latency_ms": float,
            "created_at": str,
        },
        pk="task_id",
        foreign_keys=[("task_id", "tasks", "id")],
    )
    db["summaries"].create(
        {"task_id": str, "slot": str, "text": str, "tokens": int, "created_at": str},
        pk="task_id",
        foreign_keys=[("task_id", "tasks", "id")],
    )
    db["tasks"].create_index(["conversation_id", "seq"], unique=True)
    db["messages"].create_index(["task_id", "seq"], unique=True)
    db["messages"].create_index(["conversation_id"])


@migrations()
def m002_create_tool_tables(db: Database) -> None:
    """Harness data: notes, reminders, the tool-call audit log, and validated tool reuse (skills)."""
    db["notes"].create(
        {"id": str, "conversation_id": str, "title": str, "body": str, "created_at": str, "updated_at": str},
        pk="id",
    )
    db["reminders"].create(
        {
            "id": str,
            "conversation_id": str,
            "text": str,
            "due_at": str,  # ISO 8601 UTC, or NULL for "no due time"
            "created_at": str,
            "completed_at": str,
        },
        pk="id",
    )
    db["tool_calls"].create(
        {
            "id": str,
            "conversation_id": str,
            "slot": str,
            "tool": str,
            "arguments": str,  # JSON as the model sent it (or the raw text when it did not parse)
            "status": str,  # ok | error | timeout | crashed | denied | unknown_tool | bad_arguments
            "result_chars": int,
            "duration_ms": float,
            "created_at": str,
        },
        pk="id",
    )
    db["skills"].create(
        {
            "name": str,
            "status": str,  # staged | promoted | demoted | rejected
            "sha256": str,
            "path": str,
            "created_at": str,
            "updated_at": str,
        },
        pk="name",
    )
    db["skill_events"].create(
        {"id": str, "name": str, "event": str, "sha256": str, "detail": str, "created_at": str},
        pk="id",
    )
    db["notes"].create_index(["updated_at"])
    db["reminders"].create_index(["completed_at", "due_at"])
    db["tool_calls"].create_index(["conversation_id", "created_at"])
    db["skill_events"].create_index(["name", "created_at"])


@migrations()
def m003_create_memory_tables(db: Database) -> None:
    """Memories, which turns used them, consent records, forgotten turns, adapter revisions to retrain."""
    db["memories"].create(
        {
            "id": str,
            "text": str,
            "kind": str,  # fact | preference | event
            "origin": str,  # explicit | auto | cli | import
            "conversation_id": str,  # where it came from (NULL for `mol memory add`)
            "source_message_id": str,  # the message it came from (NULL for `mol memory add`)
            "pinned": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        foreign_keys=[("source_message_id", "messages", "id")],
    )
    db["memory_uses"].create(
        {"task_id": str, "memory_id": str, "rank": int, "score": float, "created_at": str},
        pk=("task_id", "memory_id"),
        foreign_keys=[("task_id", "tasks", "id"), ("memory_id", "memories", "id")],
    )
    db["consent_records"].create(
        {"id": str, "conversation_id": str, "state": str, "created_at": str},  # state: on | off
        pk="id",
    )
    db["forgotten_tasks"].create({"task_id": str, "reason": str, "forgotten_at": str}, pk="task_id")
    db["retrain_marks"].create(
        {"revision_path": str, "reason": str, "training_ids": str, "marked_at": str},
        pk="revision_path",
    )
    db["memories"].create_index(["conversation_id"])
    db["memories"].create_index(["source_message_id"])
    db["memory_uses"].create_index(["memory_id"])
    db["consent_records"].create_index(["conversation_id", "created_at"])


@migrations()
def m004_create_trainer_runs(db: Database) -> None:
    """One row per nightly consolidation attempt per slot: what it did and why."""
    db["trainer_runs"].create(
        {
            "id": str,
            "slot": str,
            "started_at": str,
            "finished_at": str,
            "status": str,  # promoted | rejected | paused | skipped | failed
            "reason": str,
            "revision": str,  # the registered revision (promoted) or NULL
            "parent_revision": str,
            "metrics": str,  # JSON: before/after NLLs, route accuracy, train time, tokens/s, peak RSS
            "data_ids": str,  # JSON list of hashed training ids
            "config": str,  # JSON TrainConfig
        },
        pk="id",
    )
    db["trainer_runs"].create_index(["slot", "started_at"])


@migrations()
def m005_create_genui_tables(db: Database) -> None:
    """Generative-UI views (the validated document), their live state, and the action log."""
    db["genui_views"].create(
        {"id": str, "conversation_id": str, "task_id": str, "title": str, "document": str, "created_at": str},
        pk="id",
    )
    db["genui_state"].create(
        {"view_id": str, "key": str, "value": str, "updated_at": str},  # value: JSON
        pk=("view_id", "key"),
        foreign_keys=[("view_id", "genui_views", "id")],
    )
    db["genui_events"].create(
        {"id": str, "view_id": str, "action": str, "kind": str, "visibility": str, "detail": str, "created_at": str},
        pk="id",
        foreign_keys=[("view_id", "genui_views", "id")],
    )
    db["genui_views"].create_index(["conversation_id", "created_at"])
    db["genui_events"].create_index(["view_id", "created_at"])


@migrations()
def m006_add_memory_pinned_at(db: Database) -> None:
    """When a memory was pinned (pinned ones are listed first, in pin order, and always recalled).

    `pinned` itself dates from m003; rows pinned before this migration get
    their updated_at as pin time, and a NULL flag becomes 0.
    """
    db["memories"].add_column("pinned_at", str)
    db.execute("update memories set pinned = 0 where pinned is null")
    db.execute("update memories set pinned_at = updated_at where pinned = 1")
    db["memories"].create_index(["pinned", "pinned_at"])


@migrations()
def m007_add_conversation_revision(db: Database) -> None:
    """A counter bumped by every write to a conversation's history (a committed turn, a redaction).

    A session compares it with the one it loaded: another process (`mol serve`
    and `mol chat -c` on one conversation) wrote in between, so it reloads.
    """
    db["conversations"].add_column("revision", int, not_null_default=0)


@migrations()
def m008_create_memory_sources(db: Database) -> None:
    """Every conversation whose words a memory holds (its own, and any whose memories an update merged).

    Consent is a property of the data: a memory is consented only when all its
    source conversations are. Rows before this migration get their one source
    ("(none)" for a memory from no conversation, e.g. `mol memory add`).
    """
    db.execute(  # the sources go with their memory, however it is deleted
        "create table memory_sources (memory_id text not null references memories(id) on delete cascade, "
        "conversation_id text not null, added_at text, primary key (memory_id, conversation_id))"
    )
    db["memory_sources"].create_index(["conversation_id"])
    db.execute(
        "insert into memory_sources (memory_id, conversation_id, added_at) "
        "select id, coalesce(conversation_id, '(none)'), created_at from memories"
    )


@migrations()
def m009_add_conversation_source(db: Database) -> None:
    """Where a conversation came from: app (the TUI and `mol chat`), api (`mol serve` clients), import.

    API clients' conversations are kept out of the app's list (`mol chat --list --all` shows them).
    """
    db["conversations"].add_column("source", str, not_null_default="app")


@migrations()
def m010_add_memory_said_at(db: Database) -> None:
    """When a memory was said (the conversation's clock; `mol memory add --file` lines may give "at").

    Until now only the insert time was kept, so an import of old conversations looked as if everything
    had been said today. Existing rows: said when they were stored.
    """
    db["memories"].add_column("said_at", str)
    db.execute("update memories set said_at = created_at")
    db["memories"].create_index(["said_at"])


@migrations()
def m011_create_memories_fts(db: Database) -> None:
    """Keyword search over memories (SQLite FTS5), kept in step by triggers; see memory/fts.py."""
    from memory.fts import rebuild

    rebuild(db)


@migrations()
def m012_add_reminder_repeat(db: Database) -> None:
    """How a reminder repeats ("daily", "weekdays", "weekly", "monthly"; NULL: once). See mol_local/harness/repeat.py."""
    db["reminders"].add_column("repeat", str)
