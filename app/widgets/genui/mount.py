"""Mount a GenUIView under an L3 answer in the chat, and send its ask_model events as the next turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.widgets.genui.view import GenUIView, controller_handler

if TYPE_CHECKING:
    from textual.widget import Widget

    from app.screens.chat import ChatScreen


async def mount_ui_view(screen: ChatScreen, answer: Widget, task_id: str) -> GenUIView | None:
    """If the task produced a view, draw it inline under `answer`; pressing an ask_model action continues L3."""
    from mol_local.genui.actions import view_for_task

    ctl = view_for_task(screen.mol.runtime, task_id)  # type: ignore[union-attr]
    if ctl is None:
        return None

    def ask(text: str) -> None:
        async def send() -> None:
            if screen.running:
                screen.notify("An answer is still streaming — press the button again when it is done", severity="warning")
                return
            bubble = await screen.chat_log.add_user(text)
            await screen.start_turn(text, bubble, continue_task=task_id)

        screen.call_later(send)

    view = GenUIView(ctl.snapshot(), controller_handler(ctl, on_ask=ask, on_error=lambda m: screen.notify(m, severity="warning")))
    await answer.mount(view)
    return view
