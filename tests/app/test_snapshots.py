"""One SVG snapshot per screen (pytest-textual-snapshot). Animations and cursor blink are off, the data is
seeded through the real timeline, and nothing time- or id-dependent is drawn (timings stay collapsed)."""

from __future__ import annotations

import time

import pytest

from tests.app.conftest import seed_conversation, wait_for

ANSWER = """Here is a small **Python** function:

```python
def greet(name: str) -> str:
    return f"Hello, {name}!"
```

- it takes a name
- it returns a greeting
"""


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")


@pytest.fixture
def seeded(app_runtime):
    first = seed_conversation(app_runtime, "Weekend plan", "Saturday: market. Sunday: rest.", slot="L1")
    time.sleep(0.01)  # distinct updated_at stamps (ms): the sidebar order must not depend on a tie
    seed_conversation(app_runtime, "Greeting function", ANSWER, slot="L2", user="Write a greeting function in Python")
    app_runtime.timeline.set_consent(first, True)
    return app_runtime


async def settle(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.model_ready, what="the model")
    for widget in app.screen.query("TextArea, Input"):
        widget.cursor_blink = False
    await pilot.pause()


def test_chat_screen(snap_compare, make_app, seeded) -> None:
    assert snap_compare(make_app(), terminal_size=(110, 32), run_before=settle)


def test_chat_with_conversation_and_route_details(snap_compare, make_app, seeded) -> None:
    async def open_code_answer(pilot) -> None:
        await settle(pilot)
        listing = pilot.app.screen.query_one("#conversation-list")
        listing.focus()
        listing.highlighted = 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(".assistant-message .details")), what="the opened conversation")
        await pilot.press("f3")
        await wait_for(pilot, lambda: not pilot.app.screen.query_one(".details").collapsed, what="the details")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(110, 40), run_before=open_code_answer)


def test_chat_forty_columns(snap_compare, make_app, seeded) -> None:
    assert snap_compare(make_app(), terminal_size=(40, 24), run_before=settle)


def test_settings_screen(snap_compare, make_app, seeded) -> None:
    async def open_settings(pilot) -> None:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 40), run_before=open_settings)


def test_help_screen(snap_compare, make_app, seeded) -> None:
    async def open_help(pilot) -> None:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(110, 44), run_before=open_help)


def test_delete_confirmation(snap_compare, make_app, seeded) -> None:
    async def ask(pilot) -> None:
        await settle(pilot)
        listing = pilot.app.screen.query_one("#conversation-list")
        listing.focus()
        listing.highlighted = 2
        await pilot.press("f8")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=ask)


def test_memory_screen(snap_compare, make_app, seeded) -> None:
    from dataclasses import replace

    from memory.store import new_memory

    fixed = "2026-01-02T09:30:00.000+00:00"  # the table shows dates: pin them so the snapshot is stable
    row = replace(new_memory("Prefers tea over coffee", kind="preference"), created_at=fixed, updated_at=fixed)
    seeded.memory.store.add_many([row])

    async def open_memory(pilot) -> None:
        await settle(pilot)
        await pilot.press("f9")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 24), run_before=open_memory)


def test_adapters_screen_empty(snap_compare, make_app, seeded) -> None:
    async def open_adapters(pilot) -> None:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(120, 24), run_before=open_adapters)
