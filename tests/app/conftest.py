"""App fixtures: a real Runtime on the shared embedded engine with small answer budgets, and pilot helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

FAST_BUDGETS = {"answer.max_tokens": 24, "summary.max_tokens": 8}


def fast_hcp_text() -> str:
    """The shipped local-default profile with short answers, so a real turn takes about a second."""
    from hcp.edit import set_key
    from hcp.loader import parse_toml, profile_path

    doc = parse_toml(profile_path("local-default").read_text(encoding="utf-8"))
    for key, value in FAST_BUDGETS.items():
        set_key(doc, key, value)
    return doc.as_string()


@pytest.fixture
def app_runtime(engine, mol_home: Path):
    from hcp import parse_hcp
    from mol_local.runtime import Runtime

    rt = Runtime(parse_hcp(fast_hcp_text()), engine=engine)
    yield rt
    rt.db.close()


@pytest.fixture
def make_app(app_runtime):
    from app.app import MolApp

    def factory() -> MolApp:
        return MolApp(runtime=app_runtime)

    return factory


async def wait_for(pilot, condition: Callable[[], bool], *, timeout: float = 60.0, what: str = "condition") -> None:
    """Let the app run until `condition()` holds; fail the test (naming `what`) after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        await pilot.pause(0.05)


async def type_text(pilot, text: str) -> None:
    """Paste text the way the terminal driver does: one Paste event to the app, which forwards it to the focused widget."""
    from textual import events

    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


def seed_conversation(runtime, title: str, answer: str, *, slot: str = "L0", user: str | None = None) -> str:
    """Write one committed turn through the real Timeline (no model): for sidebar and snapshot tests."""
    from memory.timeline import MessageRecord, RouteRecord, TaskRecord, TurnRecord, new_id

    conversation_id = new_id()
    task = TaskRecord(new_id(), conversation_id, 0, slot, status="closed")
    runtime.timeline.commit_turn(
        TurnRecord(
            conversation_id=conversation_id,
            conversation_title=title,
            task=task,
            task_is_new=True,
            new_messages=[MessageRecord("user", user or title), MessageRecord("assistant", answer)],
            first_message_seq=0,
            route=RouteRecord(slot, "grammar", slot, False, 12.0),
            summary=f"Answered: {title}",
            timings={"total_ms": 1.0},
        )
    )
    return conversation_id
