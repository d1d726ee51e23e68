"""App fixtures: a real Runtime on the shared embedded engine with small answer budgets, and pilot helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

FAST_BUDGETS = {"answer.max_tokens": 24, "summary.max_tokens": 8}


def fast_hcp_text(**budgets: int) -> str:
    """The shipped local-default profile with short answers, so a real turn takes about a second."""
    from hcp.edit import set_key
    from hcp.loader import parse_toml, profile_path

    doc = parse_toml(profile_path("local-default").read_text(encoding="utf-8"))
    for key, value in {**FAST_BUDGETS, **{k.replace("__", "."): v for k, v in budgets.items()}}.items():
        set_key(doc, key, value)
    return doc.as_string()


@pytest.fixture(autouse=True)
def no_startup_prewarm(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """App tests run without the prewarm the chat screen starts at model load, unless marked.

    It keeps both cores busy for ~8 s, and Pilot waits for an idle process after every key
    (up to 1 s, twice), so notifications expired and short turns ended before a test could
    see them. tests/app/test_startup.py checks the prewarm itself (marked `startup_prewarm`).
    """
    if request.node.get_closest_marker("startup_prewarm") is None:
        from app.screens.chat import ChatScreen

        monkeypatch.setattr(ChatScreen, "warm", lambda self, session, leaving=None: None)


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


async def press_now(pilot, key: str) -> None:
    """Send one key and return at once. `pilot.press` then waits until the process is idle (up to
    1 s, twice), and with every slot's head prewarmed a short turn can start and finish inside
    that wait, so a test that must see the turn running sends its Enter this way."""
    from textual import events

    event = events.Key(key, "\r" if key == "enter" else None)
    event.set_sender(pilot.app)
    pilot.app._driver.send_message(event)
    await asyncio.sleep(0)


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
