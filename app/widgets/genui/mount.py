"""Mount a GenUIView under an L3 answer in the chat, and send its ask_model events as the next turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.widgets.genui.view import GenUIView, controller_handler

if TYPE_CHECKING:
    from textual.widget import Widget

    from app.screens.chat import ChatScreen
    from app.widgets.chat.bubbles import AssistantMessage


async def mount_ui_view(screen: ChatScreen, answer: Widget, task_id: str, view_id: str | None = None) -> GenUIView | None:
    """Draw the task's view (`view_id`, else its newest) inline under `answer`; ask_model actions continue L3."""
    from mol_local.genui.actions import ViewController, view_for_task
    from mol_local.genui.binding import DataPort
    from mol_local.genui.store import GenUIStore

    rt = screen.mol.runtime
    assert rt is not None
    if view_id is None:
        ctl = view_for_task(rt, task_id)
    else:
        ctl = ViewController(GenUIStore(rt.db), DataPort(rt.db), view_id)
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
    from app.widgets.chat.bubbles import AssistantMessage

    if isinstance(answer, AssistantMessage):
        answer.markdown.display = False  # the live view replaces the document's JSON text
    return view


async def mount_stored_views(screen: ChatScreen, bubbles: list[AssistantMessage]) -> int:
    """Redraw the live views of a reopened conversation; returns how many were drawn.

    An L3 task may hold several views (each `ask_model` continuation answers
    with a new document), and its answer text is exactly the stored
    document, so each answer bubble gets the view whose document it shows;
    state comes from SQLite, so ticks and typed values are as the user left them.
    """
    from mol_local.genui.store import GenUIStore

    rt = screen.mol.runtime
    if rt is None:
        return 0
    store = GenUIStore(rt.db)
    drawn = 0
    for bubble in bubbles:
        if not bubble.task_id:
            continue
        view_id = store.view_for_answer(bubble.task_id, bubble.text)
        if view_id is not None and await mount_ui_view(screen, bubble, bubble.task_id, view_id) is not None:
            drawn += 1
    return drawn
