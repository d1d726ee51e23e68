"""Sidebar: open, new, rename, delete (forget), search and consent — through the real timeline and memory store."""

from __future__ import annotations

import time

import pytest

from app.screens.modals import Confirm, TextPrompt
from app.widgets.chat.bubbles import AssistantMessage, UserMessage
from app.widgets.conversations.sidebar import NEW_ID
from tests.app.conftest import seed_conversation, wait_for

pytestmark = pytest.mark.asyncio


def labels(app) -> list[str]:
    options = app.screen.query_one("#conversation-list")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def open_first(pilot) -> None:
    """Focus the list, move to the first saved conversation and open it with Enter."""
    app = pilot.app
    app.screen.query_one("#conversation-list").focus()
    app.screen.query_one("#conversation-list").highlighted = 1
    await pilot.press("enter")
    await pilot.pause()


async def test_open_rename_and_consent(make_app, app_runtime) -> None:
    cid = seed_conversation(app_runtime, "Trip to Lisbon", "Pack **light**.\n\n```python\nprint('hi')\n```", slot="L1")
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: len(labels(app)) == 2, what="the sidebar to list the conversation")
        assert labels(app) == ["+ new conversation", "○ Trip to Lisbon"]
        await open_first(pilot)
        assert app.chat.session.conversation_id == cid
        answer = app.screen.query_one(AssistantMessage)
        assert str(answer.badge.render()) == "L1 · Personal agent"
        assert "print('hi')" in answer.text

        await pilot.press("ctrl+t")
        await pilot.pause()
        assert labels(app)[1] == "● Trip to Lisbon"
        assert app_runtime.timeline.consent_states() == {cid: True}
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app_runtime.timeline.consent_states() == {cid: False}

        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        field = app.screen.query_one("#prompt-value")
        field.value = ""
        await pilot.press("enter")  # empty name: refused, dialog stays
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        await pilot.press(*"Lisbon plan", "enter")
        await pilot.pause()
        assert labels(app)[1] == "○ Lisbon plan"
        assert app_runtime.timeline.list_conversations()[0]["title"] == "Lisbon plan"


async def test_search_filters_by_title_and_content(make_app, app_runtime) -> None:
    seed_conversation(app_runtime, "Groceries", "Buy 100% oat milk")
    time.sleep(0.01)
    seed_conversation(app_runtime, "Fix the parser", "Use a regex", slot="L2")
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: len(labels(app)) == 3, what="two conversations")
        await pilot.press("ctrl+f")
        await pilot.press(*"regex")
        await pilot.pause()
        assert labels(app)[1:] == ["○ Fix the parser"]
        app.screen.query_one("#conversation-search").value = "100%"
        await pilot.pause()
        assert labels(app)[1:] == ["○ Groceries"]
        app.screen.query_one("#conversation-search").value = "nothing like this"
        await pilot.pause()
        assert labels(app) == ["+ new conversation"]


async def test_delete_asks_then_forgets(make_app, app_runtime) -> None:
    keep = seed_conversation(app_runtime, "Keep me", "ok")
    time.sleep(0.01)  # distinct updated_at stamps: "Delete me" is the newest
    gone = seed_conversation(app_runtime, "Delete me", "ok")
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: len(labels(app)) == 3, what="two conversations")
        await open_first(pilot)  # newest first: "Delete me"
        assert app.chat.session.conversation_id == gone
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")  # No: nothing happens
        await pilot.pause()
        assert {c["id"] for c in app_runtime.timeline.list_conversations()} == {keep, gone}
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: len(labels(app)) == 2, what="the deleted conversation to leave the list")
        assert [c["id"] for c in app_runtime.timeline.list_conversations()] == [keep]
        assert app.chat.session.conversation_id != gone and not app.screen.query(UserMessage)
        assert app_runtime.timeline.load_tasks(gone) == []


async def test_actions_without_a_saved_conversation_explain_themselves(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: labels(app) == ["+ new conversation"], what="the empty list")
        assert app.screen.query_one("#conversation-list").get_option_at_index(0).id == NEW_ID
        for key in ("ctrl+t", "f2", "f8"):
            await pilot.press(key)
            await pilot.pause()
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "send a message first" in messages and "Nothing to delete" in messages
