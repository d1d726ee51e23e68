"""F1: every key the app answers to, taken from the live bindings so it never goes stale."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

INTRO = """\
# mol-local — help

One local model, four specialists (L0 Chat, L1 Personal agent, L2 Coding,
L3 Generative UI). Every answer is tagged with the slot that wrote it.
Nothing leaves this machine unless you configure a remote endpoint.

**Typing:** Enter sends · Ctrl+J adds a line · Up/Down walk your input
history · Esc cancels a running answer (nothing is saved and your text comes
back) · Ctrl+P opens the command palette.

**Training consent** (● on / ○ off) is per conversation and off by default:
only conversations you switch on may train your personal adapters.
"""


def binding_table(bindings: list[tuple[str, str]]) -> str:
    rows = ["| key | action |", "|---|---|"]
    rows += [f"| `{key}` | {description} |" for key, description in bindings]
    return "\n".join(rows)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q", "dismiss(None)", "Close help")]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__(id="help-screen")
        self._keys = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Markdown(INTRO + "\n## Keys\n\n" + binding_table(self._keys))
        yield Footer()
