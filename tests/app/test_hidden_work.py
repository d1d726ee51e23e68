"""The person never waits for hidden work: once the answer is on screen the prompt takes the next message.

The real engine answers; only the summary hop (the hidden work after the
answer) is held at a gate the test opens, so the test sees the in-between
state every time instead of racing it.
"""

from __future__ import annotations

import threading

import pytest

from app.widgets.chat.bubbles import AssistantMessage, UserMessage
from tests.app.conftest import press_now, wait_for

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


class GatedSummary:
    """The real engine; a summary hop (it keeps the answer's prefix) waits until `gate` is set."""

    def __init__(self, engine) -> None:
        self._engine = engine
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def __getattr__(self, name: str):
        return getattr(self._engine, name)

    def close(self) -> None:
        """The shared engine belongs to the test session."""

    def generate(self, request):
        if request.keep_prefix_of is not None:
            self.waiting.set()
            self.gate.wait(60)
        return self._engine.generate(request)


@pytest.fixture
def gated_app(engine, mol_home):
    from app.app import MolApp
    from hcp import parse_hcp
    from mol_local.runtime import Runtime
    from tests.app.conftest import fast_hcp_text

    gated = GatedSummary(engine)
    rt = Runtime(parse_hcp(fast_hcp_text()), engine=gated)  # type: ignore[arg-type]
    yield MolApp(runtime=rt), gated, rt
    gated.gate.set()
    rt.db.close()


async def test_the_next_message_is_accepted_while_the_last_answer_is_saved(gated_app) -> None:
    app, gated, rt = gated_app
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.model_ready, what="the model")
        await pilot.press(*"What is the capital of France?")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: app.chat.saving, what="the answer to be delivered")
        await wait_for(pilot, gated.waiting.is_set, what="the summary hop to start")
        assert rt.db["tasks"].count == 0  # the summary is held: nothing is saved yet
        first = app.screen.query(AssistantMessage).first()
        assert first.text.strip() and "saving it in the background" in str(app.chat.query_one("#status").render())

        await pilot.press(*"And of Italy?")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: len(app.chat.pending) == 1, what="the second message to be queued")
        queued = app.screen.query(UserMessage).last()
        assert queued.has_class("queued") and queued.border_title == "you · queued until the last answer is saved"
        assert app.chat.prompt.text == ""

        await pilot.press("escape")  # withdraws the queued message, never the answer on screen
        assert app.chat.pending == [] and "And of Italy?" in app.chat.prompt.text
        await pilot.press("escape")  # nothing left to withdraw: the saving goes on
        assert app.chat.saving and not app.chat.cancel_event.is_set() and first.is_attached
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: len(app.chat.pending) == 1, what="the message to be queued again")

        gated.gate.set()
        await wait_for(pilot, lambda: rt.db["tasks"].count == 2 and not app.chat.running, timeout=120, what="both turns saved")
        tasks = rt.timeline.load_tasks(app.chat.session.conversation_id)
        assert [t.messages[0].content for t in tasks] == ["What is the capital of France?", "And of Italy?"]
        assert all(t.summary for t in tasks)
