"""The scrolling conversation: user messages, assistant answers and tool blocks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Collapsible, Static

from app.widgets.chat.bubbles import AssistantMessage, UserMessage

if TYPE_CHECKING:
    from mol_local.services import TaskRecord

EMPTY_HINT = "Type a message and press Enter. Ctrl+J adds a line · Esc cancels · F1 help."


def route_lines(route: dict | None) -> list[str]:
    """Human lines for a stored or live route decision."""
    if not route:
        return ["route: sticky (tool follow-up, no new route)"]
    fallback = " (fallback: the router's output was not a label)" if route.get("fallback") else ""
    return [f"route: {route['slot']} by {route.get('mode', 'router')}{fallback}", f"router said: {route.get('raw_output', '')!r}"]


def memory_lines(texts: list[str]) -> list[str]:
    """The memories an answer's view held (recorded at commit), or a line saying there were none."""
    if not texts:
        return ["memories used: none"]
    return ["memories used:"] + [f"  • {' '.join(t.split())[:100]}" for t in texts]


def timing_lines(timings: dict[str, float]) -> list[str]:
    return [f"{key}: {value:.0f}" if isinstance(value, float) else f"{key}: {value}" for key, value in sorted(timings.items())]


class ChatLog(VerticalScroll):
    """Holds the bubbles of the current conversation."""

    def on_mount(self) -> None:
        self.anchor()

    async def show_hint(self) -> None:
        await self.remove_children()
        await self.mount(Static(EMPTY_HINT, classes="empty-hint"))

    async def add_user(self, text: str, *, queued: str | None = None) -> UserMessage:
        for hint in self.query(".empty-hint"):
            await hint.remove()
        bubble = UserMessage(text, queued=queued)
        await self.mount(bubble)
        return bubble

    async def add_assistant(self) -> AssistantMessage:
        bubble = AssistantMessage()
        await self.mount(bubble)
        return bubble

    async def load(
        self,
        tasks: Sequence[TaskRecord],
        slot_names: dict[str, str],
        route_of: Callable[[str], dict | None],
        memories_of: Callable[[str], list[str]],
    ) -> None:
        """Render a stored conversation: every task's messages, tool outputs folded."""
        await self.remove_children()
        if not tasks:
            await self.show_hint()
            return
        widgets = []
        for task in tasks:
            for message in task.messages:
                if message.role == "user":
                    widgets.append(UserMessage(message.content))
                elif message.role == "tool":
                    widgets.append(Collapsible(Static(Content(message.content)), title="tool result", collapsed=True, classes="tool-block"))
                else:
                    bubble = AssistantMessage(text=message.content)
                    bubble.task_id = task.id
                    bubble.slot = task.slot
                    widgets.append(bubble)
        await self.mount_all(widgets)
        for bubble in self.query(AssistantMessage):
            bubble.set_badge(bubble.slot, slot_names.get(bubble.slot, bubble.slot))
            bubble.set_details(
                route_lines(route_of(bubble.task_id) if bubble.task_id else None)
                + memory_lines(memories_of(bubble.task_id) if bubble.task_id else [])
            )
        self.scroll_end(animate=False)
