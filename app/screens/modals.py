"""Small modal dialogs: ask for one line of text, or confirm a destructive action."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label


class TextPrompt(ModalScreen[str | None]):
    """Returns the entered text (stripped), or None on Esc."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, value: str = "", *, max_length: int = 200) -> None:
        super().__init__(classes="dialog-screen")
        self._title = title
        self._value = value
        self._max_length = max_length

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Input(self._value, max_length=self._max_length, id="prompt-value")
            yield Label("Enter to save · Esc to cancel", classes="dialog-hint")

    @on(Input.Submitted, "#prompt-value")
    def _submit(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.notify("This cannot be empty — type a value, or press Esc to cancel", severity="error")
            return
        self.dismiss(text)


class Confirm(ModalScreen[bool]):
    """Yes/no for destructive actions; defaults to No."""

    BINDINGS = [Binding("escape", "dismiss(False)", "No"), Binding("y", "dismiss(True)", "Yes")]

    def __init__(self, question: str, *, yes: str = "Yes, delete (y)") -> None:
        super().__init__(classes="dialog-screen")
        self._question = question
        self._yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._question, classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button("No (Esc)", id="no", variant="primary")
                yield Button(self._yes, id="yes", variant="error")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
