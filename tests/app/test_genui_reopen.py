"""Reopening a conversation (or restarting the app) redraws its L3 answers as live views with their saved state."""

from __future__ import annotations

import copy

import pytest
from textual.widgets import Checkbox, Input

from app.widgets.chat.bubbles import AssistantMessage
from app.widgets.genui import GenUIView
from tests.app.conftest import fast_hcp_text, wait_for
from tests.mol_local.genui.conftest import PLANNER

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


def seed_views(runtime) -> tuple[str, list[str]]:
    """One committed L3 task answering twice (a view, then its ask_model follow-up), and one text fallback."""
    from memory.timeline import MessageRecord, RouteRecord, TaskRecord, TurnRecord, new_id
    from mol_local.genui.document import parse_document
    from mol_local.genui.store import GenUIStore

    first = parse_document(copy.deepcopy(PLANNER))
    follow = copy.deepcopy(PLANNER)
    follow["title"] = "Weekend planner, more ideas"
    second = parse_document(follow)
    cid = new_id()
    task = TaskRecord(new_id(), cid, 0, "L3", status="open")
    text_task = TaskRecord(new_id(), cid, 1, "L3", status="closed")
    store = GenUIStore(runtime.db)
    ids = [store.save(first, conversation_id=cid, task_id=task.id)]
    runtime.timeline.commit_turn(TurnRecord(
        conversation_id=cid, conversation_title="Planner", task=task, task_is_new=True,
        new_messages=[MessageRecord("user", "a weekend planner"), MessageRecord("assistant", first.dumps()),
                      MessageRecord("user", "[UI event] more"), MessageRecord("assistant", second.dumps())],
        first_message_seq=0, route=RouteRecord("L3", "grammar", "L3", False, 12.0), summary="Built a planner",
        timings={"total_ms": 1.0}))
    ids.append(store.save(second, conversation_id=cid, task_id=task.id))
    runtime.timeline.commit_turn(TurnRecord(
        conversation_id=cid, conversation_title="Planner", task=text_task, task_is_new=True,
        new_messages=[MessageRecord("user", "a view of everything"),
                      MessageRecord("assistant", "I could not build this view; what failed:\n- components must be a non-empty list")],
        first_message_seq=4, route=RouteRecord("L3", "grammar", "L3", False, 12.0), summary="Failed",
        timings={"total_ms": 1.0}))
    return cid, ids


async def open_saved(pilot) -> None:
    app = pilot.app
    options = app.screen.query_one("#conversation-list")
    await wait_for(pilot, lambda: options.option_count == 2, what="the saved conversation in the sidebar")
    options.focus()
    options.highlighted = 1
    await pilot.press("enter")
    await wait_for(pilot, lambda: len(app.screen.query(GenUIView)) == 2, what="the stored views to be drawn")


async def tick(pilot, view: GenUIView, selector: str) -> None:
    box = view.query_one(selector, Checkbox)
    box.focus()
    await pilot.press("space")
    await pilot.pause()


async def test_reopened_conversation_redraws_views_with_saved_state(make_app, app_runtime, engine) -> None:
    from app.app import MolApp
    from hcp import parse_hcp
    from mol_local.runtime import Runtime

    cid, view_ids = seed_views(app_runtime)
    app = make_app()
    async with app.run_test(size=(110, 70)) as pilot:
        await open_saved(pilot)
        assert app.chat.session.conversation_id == cid
        views = list(app.screen.query(GenUIView))
        assert [v.border_title for v in views] == ["Weekend planner", "Weekend planner, more ideas"]
        bubbles = list(app.screen.query(AssistantMessage))
        assert [len(b.query(GenUIView)) for b in bubbles] == [1, 1, 0]  # the text fallback stays text
        assert views[0].query_one("#ui-todo-1", Checkbox).value is False
        await tick(pilot, views[0], "#ui-todo-1")
        assert views[1].query_one("#ui-todo-1", Checkbox).value is False  # each view has its own state

        await pilot.press("ctrl+n")
        await pilot.pause()
        assert not app.screen.query(GenUIView)
        await open_saved(pilot)
        views = list(app.screen.query(GenUIView))
        assert views[0].query_one("#ui-todo-1", Checkbox).value is True
        assert views[1].query_one("#ui-todo-1", Checkbox).value is False

    restarted = Runtime(parse_hcp(fast_hcp_text()), engine=engine)  # a new process's view of the same MOL_HOME
    try:
        app2 = MolApp(runtime=restarted)
        async with app2.run_test(size=(110, 70)) as pilot:
            await open_saved(pilot)
            views = list(app2.screen.query(GenUIView))
            assert views[0].query_one("#ui-todo-1", Checkbox).value is True
            assert views[0].query_one("#ui-entry", Input).value == ""
    finally:
        restarted.db.close()
    from mol_local.genui.store import GenUIStore

    assert GenUIStore(app_runtime.db).state(view_ids[0])["items"][1]["done"] is True
