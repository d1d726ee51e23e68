"""Fixtures for the memory store: a real SQLite file and a real Chroma index under MOL_HOME."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.bank import MemoryBank
from memory.db import open_db


@pytest.fixture
def db(mol_home: Path):
    database = open_db(mol_home / "mol.db")
    yield database
    database.close()


@pytest.fixture
def bank(db, mol_home: Path) -> MemoryBank:
    return MemoryBank(db, mol_home / "chroma")


FACTS = [
    "My sister Ana is allergic to peanuts",
    "I prefer aisle seats on long flights",
    "The wifi password at home is tulip42",
    "My dentist appointment is on Friday at 3pm",
    "I am learning to play the cello",
]


def commit_turn(db, conversation_id: str, user: str, answer: str, *, status: str = "closed", memory=None) -> str:
    """Write one real turn through Timeline.commit_turn (optionally storing a memory linked to its user message)."""
    from memory.store import insert_rows
    from memory.timeline import MessageRecord, TaskRecord, Timeline, TurnRecord, new_id

    timeline = Timeline(db)
    seq = len(timeline.load_tasks(conversation_id)) if timeline.conversation_exists(conversation_id) else 0
    task = TaskRecord(new_id(), conversation_id, seq, "L0", status=status)
    extra = []
    if memory is not None:
        extra.append(lambda tx, ids: insert_rows(tx, [memory.__class__(**{**memory.__dict__, "source_message_id": ids[0]})]))
    timeline.commit_turn(
        TurnRecord(
            conversation_id, user[:80], task, True, [MessageRecord("user", user), MessageRecord("assistant", answer)], 0,
            summary=f"The user said: {user}", extra_writes=extra,
        )
    )
    return task.id


def tiny_pack(folder: Path) -> Path:
    """A persona pack of one-line prompts, so a turn's prefill is a few dozen tokens."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("intro", "route", "summary", "L0", "L1", "L2", "L3"):
        (folder / f"{name}.md").write_text("Be brief.\n", encoding="utf-8")
    return folder


def write_hcp(path: Path, **changes) -> Path:
    """A copy of the local-default profile with some sections changed, e.g. answer={"max_tokens": 8}."""
    import tomlkit

    from hcp import profile_path

    doc = tomlkit.parse(profile_path("local-default").read_text(encoding="utf-8"))
    for section, values in changes.items():
        if not isinstance(values, dict):
            doc[section] = values  # a top-level key, e.g. persona_pack="./pack"
            continue
        for key, value in values.items():
            doc[section][key] = value
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    return path
