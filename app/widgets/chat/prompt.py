"""The prompt: multi-line entry with history. Enter sends; Ctrl+J (or Shift+Enter) adds a line."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import TextArea

from app.messages import PromptSubmitted


class PromptInput(TextArea):
    """A TextArea whose Enter submits; Up/Down at the first/last line walk the input history."""

    # TextArea's own F6 ("select line") and F7 ("select all") would hide the app's
    BINDINGS = [Binding("f6", "app.trainer", "Trainer", show=False), Binding("f7", "app.models", "Models", show=False)]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, soft_wrap=True, show_line_numbers=False, tab_behavior="focus")
        self.sent_history: list[str] = []
        self._history_pos: int | None = None
        self._draft = ""

    def remember(self, text: str) -> None:
        if text and (not self.sent_history or self.sent_history[-1] != text):
            self.sent_history.append(text)
        self._history_pos = None

    def restore(self, text: str) -> None:
        """Put `text` back (after a cancel or a failure), keeping anything typed since."""
        current = self.text
        self.load_text(text if not current.strip() else f"{text}\n{current}")
        self.move_cursor(self.document.end)

    def _recall(self, step: int) -> None:
        if not self.sent_history:
            return
        if self._history_pos is None:
            if step > 0:
                return
            self._draft = self.text
            pos = len(self.sent_history) - 1
        else:
            pos = self._history_pos + step
        if pos >= len(self.sent_history):
            self._history_pos = None
            self.load_text(self._draft)
        else:
            self._history_pos = max(0, pos)
            self.load_text(self.sent_history[self._history_pos])
        self.move_cursor(self.document.end)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(PromptSubmitted(self.text))
            return
        if event.key in ("shift+enter", "ctrl+j"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        row = self.cursor_location[0]
        if event.key == "up" and row == 0:
            event.stop()
            event.prevent_default()
            self._recall(-1)
            return
        if event.key == "down" and row == self.document.line_count - 1 and self._history_pos is not None:
            event.stop()
            event.prevent_default()
            self._recall(+1)
            return
        await super()._on_key(event)
