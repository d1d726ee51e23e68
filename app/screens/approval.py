"""Asking the person before an MCP tool runs (one the HCP does not allow, or one its server marks destructive).

The turn runs on a worker thread; `install_approver` gives the runtime's MCP
tools a callback that shows `ToolApproval` on the UI thread and waits for the
answer: allow once, always (for this session), or deny. Nothing here touches
the tools themselves: the answer goes back to mol_local, which runs or refuses.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from app.messages import ApprovalAsked

if TYPE_CHECKING:
    from textual.app import App

    from mol_local.runtime import Runtime

ANSWERS = ("once", "always", "deny")


class ToolApproval(ModalScreen[str]):
    """Allow once (o) / always (a) / deny (d, Esc)."""

    BINDINGS = [Binding("escape", "dismiss('deny')", "Deny"), Binding("d", "dismiss('deny')", "Deny"),
                Binding("o", "dismiss('once')", "Allow once"), Binding("a", "dismiss('always')", "Always")]

    def __init__(self, tool: str, args: dict[str, Any], destructive: bool) -> None:
        super().__init__(classes="dialog-screen")
        self._tool, self._args, self._destructive = tool, args, destructive

    def compose(self) -> ComposeResult:
        shown = json.dumps(self._args, ensure_ascii=False)
        warn = " The server marks it destructive." if self._destructive else ""
        with Vertical(classes="dialog"):
            yield Label(f"The model wants to run the MCP tool {self._tool}.{warn}", classes="dialog-title", id="approval-question")
            yield Label(shown if len(shown) <= 400 else shown[:400] + " …", id="approval-args")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Deny (d)", id="deny", variant="primary")
                yield Button("Allow once (o)", id="once")
                yield Button("Always (a)", id="always", variant="warning")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id if event.button.id in ANSWERS else "deny")


def install_approver(app: App, runtime: Runtime) -> bool:
    """Let the runtime's MCP tools ask the person through `app`; False when it has none."""
    hub = runtime.tool_hub
    if hub is None or hub.mcp is None:
        return False

    def approver(tool: Any, args: dict[str, Any]) -> str:
        done = threading.Event()
        answer = {"value": "deny"}

        def answered(value: str | None) -> None:
            answer["value"] = value or "deny"
            done.set()

        if not app.post_message(ApprovalAsked(tool.full_name, args, tool.destructive, answered)):
            return "deny"  # the app is closing: nobody can answer
        while not done.wait(0.5):
            if not app.is_running:  # closed before the person answered
                return "deny"
        return answer["value"]

    hub.mcp.approver = approver
    return True
