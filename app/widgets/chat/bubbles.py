"""One user message and one assistant answer (streamed Markdown, slot badge, details on demand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Collapsible, Label, Static

if TYPE_CHECKING:
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownStream


class UserMessage(Static):
    """What the user sent; shown verbatim (never parsed as markup)."""

    def __init__(self, text: str, *, queued: str | None = None) -> None:
        """`queued`: what the message waits for ("the model is ready", "the last answer is saved")."""
        super().__init__(Content(text), classes="user-message")
        self.text = text
        self.set_class(queued is not None, "queued")
        self.border_title = f"you · queued until {queued}" if queued else "you"

    def mark_sent(self) -> None:
        self.remove_class("queued")
        self.border_title = "you"


def line_breaks(text: str) -> str:
    """The answer's own line breaks kept by Markdown, outside code fences ("Reminder set for … 08:00: …" and the 18:00
    one on two lines ran together as one paragraph in the app); a line then ends in Markdown's hard break."""
    out, fenced = [], False
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.strip() and i + 1 < len(lines) and lines[i + 1].strip():
            line = line.rstrip() + "  "
        out.append(line)
    return "\n".join(out)


class AssistantMessage(Vertical):
    """An answer: badge (slot + persona), Markdown body, collapsible route/timings and tool blocks."""

    def __init__(self, *, badge: str = "routing…", text: str = "") -> None:
        super().__init__(classes="assistant-message")
        self._badge_text = badge
        self.text = text
        self._stream: MarkdownStream | None = None
        self.task_id: str | None = None
        self.slot = ""
        self.route: dict | None = None

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it loads with the first answer, not at start-up

        yield Label(self._badge_text, classes="slot-badge")
        yield Markdown(line_breaks(self.text), classes="answer")
        yield Collapsible(Static("", classes="details-body"), title="route · timings", collapsed=True, classes="details")

    @property
    def badge(self) -> Label:
        return self.query_one(".slot-badge", Label)

    @property
    def markdown(self) -> Markdown:
        return self.query_one(".answer")  # type: ignore[return-value]

    def set_badge(self, slot: str, name: str) -> None:
        self._badge_text = f"{slot} · {name}"
        self.badge.update(Content(self._badge_text))
        self.set_class(True, f"slot-{slot.lower()}")

    async def stream(self, piece: str) -> None:
        if self._stream is None:
            self._stream = self.markdown.get_stream(self.markdown)
        self.text += piece
        await self._stream.write(piece)

    async def finish(self, answer: str) -> None:
        """Replace the streamed text with the committed answer (stripped, exactly as stored)."""
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        self.text = answer
        await self.markdown.update(line_breaks(answer))

    async def show_draft(self, draft: dict) -> None:
        """Sketch the L3 view being written (app/widgets/genui/draft.py), above the details."""
        from app.widgets.genui.draft import ViewDraft

        found = self.query(ViewDraft)
        sketch = found.first() if found else ViewDraft(classes="view-draft")
        sketch.show(draft)  # before it is mounted: never an empty frame
        if not found:
            await self.mount(sketch, before=self.query_one(".details", Collapsible))
            self.markdown.display = False  # the document's JSON is not for reading

    async def drop_draft(self) -> None:
        """The validated view (or the error text) is shown: the sketch goes."""
        from app.widgets.genui.draft import ViewDraft
        from app.widgets.genui.view import GenUIView

        await self.query(ViewDraft).remove()
        if not self.query(GenUIView):  # no valid document: the answer text says what failed
            self.markdown.display = True

    def set_details(self, lines: list[str]) -> None:
        self.query_one(".details-body", Static).update(Content("\n".join(lines)))

    async def add_note(self, text: str) -> None:
        """A quiet line under the answer, e.g. "remembered: The user's name is Ada. (Ctrl+Z undoes)"."""
        await self.mount(Label(Content(text), classes="memory-note"), before=self.query_one(".details", Collapsible))

    async def add_tool_outputs(self, outputs: list[str]) -> None:
        for i, output in enumerate(outputs, 1):
            block = Collapsible(Static(Content(output)), title=f"tool result {i}", collapsed=True, classes="tool-block")
            await self.mount(block, before=self.query_one(".details", Collapsible))
