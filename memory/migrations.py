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
