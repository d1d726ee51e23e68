"""Chat screen main path on the real embedded model: send, stream, badge, details, cancel, history."""

from __future__ import annotations

import pytest

from app.widgets.chat.bubbles import AssistantMessage, UserMessage
from tests.app.conftest import press_now, type_text, wait_for

pytestmark = pytest.mark.asyncio


async def ready(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.model_ready, what="the model to be ready")


@pytest.mark.slow
async def test_send_streams_answer_with_slot_badge(make_app, app_runtime) -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await ready(pilot)
        await pilot.press(*"What is the capital of France?")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: app.chat.running, what="the turn to start")
        answer = app.screen.query(AssistantMessage).last()
        seen: list[str] = []

        def streaming() -> bool:
            if app.chat.running and answer.text:
                seen.append(answer.text)
            return bool(seen) or not app.chat.running

        await wait_for(pilot, streaming, what="the first streamed token")
        await wait_for(pilot, lambda: not app.chat.running, what="the turn to finish")

        badge = str(answer.badge.render())
        assert badge in {f"{label} · {name}" for label, name in app_runtime.slot_names().items()}
        assert answer.text.strip(), "the committed answer is shown"
        assert seen, "text was on screen before the turn finished (streaming)"
        assert app.screen.query_one("#prompt").text == ""
        conversations = app_runtime.timeline.list_conversations()
        assert [c["title"] for c in conversations] == ["What is the capital of France?"]
        assert answer.task_id is not None and app_runtime.timeline.route_decision(answer.task_id) is not None

        await pilot.press("f3")
        details = answer.query_one(".details")
        assert details.collapsed is False
        body = str(answer.query_one(".details-body").render())
        assert "route:" in body and "total_ms" in body


@pytest.mark.slow
async def test_escape_cancels_rolls_back_and_restores_input(engine) -> None:
    from app.app import MolApp
    from hcp import parse_hcp
    from mol_local.runtime import Runtime
    from tests.app.conftest import fast_hcp_text

    app_runtime = Runtime(parse_hcp(fast_hcp_text(answer__max_tokens=384)), engine=engine)  # long enough to press Esc in
    app = MolApp(runtime=app_runtime)
    async with app.run_test(size=(110, 36)) as pilot:
        await ready(pilot)
        await pilot.press(*"Write a long story about a dragon")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: app.chat.running, what="the turn to start")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.chat.running, what="the cancel to land")
        assert app.screen.query_one("#prompt").text == "Write a long story about a dragon"
        assert not app.screen.query(UserMessage) and not app.screen.query(AssistantMessage)
        assert app_runtime.timeline.list_conversations() == [], "a cancelled turn leaves no trace"
        assert any("Cancelled" in str(n.message) for n in app._notifications)
    app_runtime.db.close()


async def test_messages_typed_while_loading_are_queued(make_app, app_runtime) -> None:
    """Before the model is ready the input works; the message waits and is marked as queued."""
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await ready(pilot)
        app.model_ready = False  # the state the app is in while the engine loads
        app.chat.show_state()
        assert "loading" in str(app.screen.query_one("#status").render())
        await type_text(pilot, "hello while loading")
        await pilot.press("enter")
        bubble = app.screen.query_one(UserMessage)
        assert bubble.has_class("queued") and app.chat.pending
        await pilot.press("escape")
        await pilot.pause()
        assert not app.chat.pending and app.screen.query_one("#prompt").text == "hello while loading"


async def test_multiline_entry_and_input_history(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        prompt = app.screen.query_one("#prompt")
        await pilot.press("a", "ctrl+j", "b")
        assert prompt.text == "a\nb"
        prompt.remember("first")
        prompt.remember("second")
        prompt.load_text("")
        await pilot.press("up")
        assert prompt.text == "second"
        await pilot.press("up")
        assert prompt.text == "first"
        await pilot.press("down", "down")
        assert prompt.text == ""


async def test_empty_message_is_refused(make_app, app_runtime) -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await ready(pilot)
        await type_text(pilot, "   \n  ")
        await pilot.press("enter")
        await pilot.pause()
        assert not app.chat.running and not app.screen.query(UserMessage)
        assert any("Empty message" in str(n.message) for n in app._notifications)


async def test_due_reminder_notifies_once(make_app, app_runtime) -> None:
    from mol_local.harness.store import RemindersStore

    from datetime import datetime

    store = RemindersStore(app_runtime.db)
    store.clock = lambda: datetime(2019, 12, 31, 9, 0)  # set a day ahead, then the real clock finds it due
    store.create("Call the dentist", "2020-01-01T09:00")
    store.create("Not yet", "2999-01-01T09:00")
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.reminders is not None, what="the reminder watch")
        await pilot.pause()
        shown = [str(n.message) for n in app._notifications]
        assert shown.count("Call the dentist") == 1 and "Not yet" not in shown
        app.check_reminders()
        assert [str(n.message) for n in app._notifications].count("Call the dentist") == 1


def test_an_answers_own_lines_stay_lines_outside_code() -> None:
    """In the app two "Reminder set for …" lines ran together as one paragraph (Markdown joins single newlines)."""
    from app.widgets.chat.bubbles import line_breaks

    assert line_breaks("Reminder set for 08:00: a.\nReminder set for 18:00: b.") == "Reminder set for 08:00: a.  \nReminder set for 18:00: b."
    code = "```python\ndef f():\n    return 1\n```\nIt returns 1."
    assert line_breaks(code) == code  # a code block's lines are its own
    assert line_breaks("One.\n\nTwo.") == "One.\n\nTwo."  # a paragraph break stays one


@pytest.mark.slow
async def test_a_list_edit_says_what_changed_under_the_view(make_app, app_runtime) -> None:
    """Under tmux, "Take the flour off" redrew the list without the flour and said nothing of what changed."""
    from textual.widgets import Label

    app = make_app()
    async with app.run_test(size=(110, 60)) as pilot:
        await ready(pilot)
        for n, text in enumerate(("Add eggs, flour and butter to my shopping list", "Take the flour off"), 1):
            await type_text(pilot, text)
            await press_now(pilot, "enter")
            await wait_for(pilot, lambda n=n: len(app.screen.query(UserMessage)) == n and not app.chat.running
                           and app.chat.current_answer is None, what=f"the turn {text!r} to be saved")
        notes = [str(label.render()) for label in app.screen.query(AssistantMessage).last().query(".memory-note").results(Label)]
        assert notes == ["Removed Flour."]
