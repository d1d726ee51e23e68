"""Memory panel: list and filter, edit, forget (confirmed, through memory.forget), and which memories an answer used."""

from __future__ import annotations

import pytest

from app.screens.memory import MemoryScreen
from app.screens.modals import Confirm, TextPrompt
from tests.app.conftest import seed_conversation, wait_for

pytestmark = pytest.mark.asyncio


@pytest.fixture
def memories(app_runtime):
    from memory.store import new_memory

    rows = [new_memory("Prefers tea over coffee", kind="preference"), new_memory("Sister's birthday is 3 May", kind="event")]
    app_runtime.memory.store.add_many(rows)
    return rows


def table_rows(app) -> list[str]:
    table = app.screen.query_one("#memory-table")
    return [str(table.get_row_at(i)[1]) for i in range(table.row_count)]


def pin_marks(app) -> list[str]:
    table = app.screen.query_one("#memory-table")
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def open_memory(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.runtime is not None, what="the runtime")
    await pilot.press("f9")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MemoryScreen), what="the memory screen")
    await pilot.pause()


async def test_filter_and_edit(make_app, app_runtime, memories) -> None:
    app = make_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await open_memory(pilot)
        assert table_rows(app) == ["Prefers tea over coffee", "Sister's birthday is 3 May"]
        await pilot.press("ctrl+f", *"birthday")
        await pilot.pause()
        assert table_rows(app) == ["Sister's birthday is 3 May"]
        app.screen.query_one("#memory-table").focus()
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        app.screen.query_one("#prompt-value").value = "Sister's birthday is 4 May"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app_runtime.memory.store.get(memories[1].id).text == "Sister's birthday is 4 May", what="the edit")


@pytest.mark.slow
async def test_forget_asks_then_deletes(make_app, app_runtime, memories) -> None:
    app = make_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await open_memory(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await wait_for(pilot, lambda: table_rows(app) == ["Sister's birthday is 3 May"], timeout=240, what="the forget")
        assert [r.id for r in app_runtime.memory.store.list()] == [memories[1].id]


async def test_details_show_the_memories_an_answer_used(make_app, app_runtime, memories) -> None:
    from memory.db import transaction

    cid = seed_conversation(app_runtime, "Drinks", "Tea it is.")
    task_id = app_runtime.timeline.load_tasks(cid)[0].id
    with transaction(app_runtime.db) as db:
        app_runtime.memory.store.record_uses(db, task_id, [(memories[0].id, 0.9)])
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        await app.chat.open_conversation(cid)
        await pilot.press("f3")
        await pilot.pause()
        body = str(app.screen.query_one(".details-body").render())
        assert "memories used:" in body and "Prefers tea over coffee" in body


async def test_pin_key_marks_moves_first_and_unpins(make_app, app_runtime, memories) -> None:
    app = make_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await open_memory(pilot)
        assert pin_marks(app) == ["", ""]
        app.screen.query_one("#memory-table").move_cursor(row=1)
        await pilot.press("p")
        await pilot.pause()
        assert table_rows(app) == ["Sister's birthday is 3 May", "Prefers tea over coffee"]
        assert pin_marks(app) == ["📌", ""]
        assert app.screen.query_one("#memory-table").cursor_row == 0  # the cursor follows the pinned memory
        assert app_runtime.memory.store.get(memories[1].id).pinned
        await pilot.press("p")
        await pilot.pause()
        assert pin_marks(app) == ["", ""] and not app_runtime.memory.store.get(memories[1].id).pinned


async def test_pin_beyond_the_cap_notifies_and_changes_nothing(make_app, app_runtime, memories) -> None:
    from memory.store import PINNED_MAX, new_memory

    extra = [new_memory(f"Pinned fact {i}") for i in range(PINNED_MAX)]
    app_runtime.memory.store.add_many(extra)
    for row in extra:
        app_runtime.memory.store.pin(row.id)
    app = make_app()
    async with app.run_test(size=(110, 30)) as pilot:
        await open_memory(pilot)
        app.screen.query_one("#memory-table").move_cursor(row=PINNED_MAX)  # the first unpinned one
        await pilot.press("p")
        await pilot.pause()
        assert any("unpin one first" in n.message and n.severity == "error" for n in app._notifications)
        assert not app_runtime.memory.store.get(memories[0].id).pinned


async def test_model_load_opens_the_vector_index_when_there_are_memories(make_app, app_runtime, memories) -> None:
    """The first turn's recall should not be the one to load MiniLM and open Chroma."""
    bank = app_runtime.memory
    assert not bank.ready
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.model_ready, what="the model")
        await wait_for(pilot, lambda: bank.ready, timeout=120, what="the vector index to open in the background")
        assert [r.memory.id for r in bank.search("tea or coffee?", 1)] == [memories[0].id]
