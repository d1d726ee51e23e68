"""The chat prompt strips terminal escapes and control characters; a message of nothing else is refused and kept."""

from __future__ import annotations

import pytest

from app.widgets.chat.bubbles import UserMessage
from tests.app.conftest import wait_for

pytestmark = pytest.mark.asyncio


async def test_a_message_of_only_control_characters_is_refused_and_stays_in_the_prompt(make_app, app_runtime) -> None:
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: pilot.app.model_ready, what="the model to be ready")
        prompt = app.screen.query_one("#prompt")
        prompt.load_text("\x1b[31m\x07\x1b[0m")
        await pilot.press("enter")
        await pilot.pause()
        assert not app.chat.running and not app.screen.query(UserMessage)
        assert any("only control characters" in str(n.message) for n in app._notifications)
        assert prompt.text == "\x1b[31m\x07\x1b[0m"  # nothing lost
