"""The main screen: conversation sidebar, chat log, status line and prompt.

Turns run in a thread worker; the worker only posts messages (RouteDecided,
TokenStreamed, TurnCompleted, TurnFailed), so keystrokes stay responsive while
the model streams.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, Static

from app.backend import user_errors
from app.messages import (
    AnswerDelivered,
    ConversationSelected,
    PromptSubmitted,
    RouteDecided,
    TokenStreamed,
    TurnCompleted,
    TurnFailed,
    ViewDrafted,
)
from app.screens.conversations import ConversationActions
from app.widgets.chat.bubbles import AssistantMessage, UserMessage
from app.widgets.chat.log import ChatLog, memory_lines, route_lines, timing_lines
from app.widgets.chat.prompt import PromptInput
from app.widgets.conversations.sidebar import ConversationSidebar
from mol_local.errors import EmptyMessage
from mol_local.textclean import clean_message

if TYPE_CHECKING:
    from mol_local.turn import Session

MAX_MESSAGE_CHARS = 200_000
"""Longer input is refused before it reaches the model (and kept in the prompt): even the
largest context we ship cannot hold it, and tokenising megabytes would stall the turn."""


class ChatScreen(ConversationActions):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (72, "-wide")]
    """Below 72 columns the sidebar hides (Ctrl+B brings it back) so the chat keeps its width."""
    BINDINGS = [
        Binding("escape", "cancel_turn", "Cancel", show=True),
        Binding("ctrl+n", "new_conversation", "New"),
        Binding("f2", "rename_conversation", "Rename"),
        Binding("f8", "delete_conversation", "Delete"),
        Binding("ctrl+f", "search_conversations", "Search"),
        Binding("ctrl+t", "toggle_consent", "Consent"),
        Binding("f3", "toggle_details", "Details"),
        Binding("ctrl+b", "toggle_sidebar", "Sidebar"),
        Binding("ctrl+l", "focus_prompt", "Prompt", show=False),
        Binding("ctrl+z", "undo_memory", "Undo memory", show=False),
    ]

    def __init__(self) -> None:
        super().__init__(id="chat-screen")
        self.session: Session | None = None
        self.turn_id = 0
        self.cancel_event = threading.Event()
        self.running = False
        self.saving = False  # the answer is delivered; its summary, memory and commit run in the background
        self.turn_done = threading.Event()  # set when the turn's worker has committed or failed
        self.turn_done.set()
        self.pending: list[tuple[str, UserMessage]] = []
        self.current_text = ""
        self.current_user: UserMessage | None = None
        self.current_answer: AssistantMessage | None = None
        self.last_memory_changes: list = []  # what the last turn's extraction changed; Ctrl+Z takes it back
        self.composed = False  # set at the end of on_mount; the app may report the runtime before that

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="main"):
            yield ConversationSidebar(id="sidebar")
            with Vertical(id="chat-pane"):
                yield ChatLog(id="chat-log")
                yield Static("starting…", id="status")
                yield PromptInput(id="prompt")
        yield Footer(compact=True)

    @property
    def chat_log(self) -> ChatLog:
        return self.query_one(ChatLog)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def sidebar(self) -> ConversationSidebar:
        return self.query_one(ConversationSidebar)

    async def on_mount(self) -> None:
        await self.chat_log.show_hint()
        self.prompt.focus()
        self.composed = True
        if self.mol.runtime is not None:
            await self.runtime_opened()
        self.show_state()

    # -- runtime state ---------------------------------------------------------
    def show_state(self) -> None:
        """Status line text for the runtime state the app holds."""
        app = self.mol
        status = self.query_one("#status", Static)
        status.remove_class("loading", "failed", "ready")
        if app.runtime_error:
            status.update(f"✗ {app.runtime_error}")
            status.add_class("failed")
        elif app.runtime is None:
            status.update("◌ opening your data…  (you can type; messages wait for the model)")
            status.add_class("loading")
        elif not app.model_ready:
            status.update(f"◌ loading the model for {app.runtime.hcp.name}…  (you can type; messages are queued)")
            status.add_class("loading")
        elif self.saving:
            status.update("● answered — saving it in the background; you can send the next message")
            status.add_class("ready")
        elif self.running:
            status.update("◌ answering…  (Esc cancels; nothing is saved until the answer is complete)")
            status.add_class("loading")
        else:
            slots = " ".join(f"{label}·{name}" for label, name in app.runtime.slot_names().items())
            status.update(f"● {app.runtime.hcp.name} ready — {slots}")
            status.add_class("ready")
        self.sub_title = self.title_of(self.session.conversation_id) if self.session else "new conversation"

    async def runtime_opened(self) -> None:
        """Called by the app; also from on_mount when the runtime opened before this screen did."""
        if not self.composed:
            return
        self.refresh_sidebar()
        if self.session is None:
            self.session = self.mol.runtime.session(None)  # type: ignore[union-attr]
        self.show_state()

    async def model_loaded(self) -> None:
        if not self.composed:
            return
        self.show_state()
        await self.drain_queue()
        if not self.running and self.session is not None:
            self.warm(self.session)

    @work(thread=True, group="prewarm", exit_on_error=False)
    def warm(self, session: Session, leaving: Session | None = None) -> None:
        """Every slot's head (and the opened conversation) into its KV while the user types; a turn stops it.
        The conversation switched away from (`leaving`) is saved first, so reopening it loads instead of prefilling."""
        if leaving is not None and leaving is not session:
            leaving.save_kv()
        session.prewarm()

    def busy_line(self) -> str:
        if self.saving:
            return "The last answer is still being saved — try again in a moment"
        return "An answer is still streaming — press Esc to cancel it first"

    async def drain_queue(self) -> None:
        if self.pending and not self.running and self.mol.model_ready:
            text, bubble = self.pending.pop(0)
            bubble.mark_sent()
            await self.start_turn(text, bubble)

    # -- sending ---------------------------------------------------------------
    @on(PromptSubmitted)
    async def submitted(self, event: PromptSubmitted) -> None:
        try:
            text = clean_message(event.text)  # terminal escapes and control characters stripped; nothing left is refused
        except EmptyMessage as exc:
            self.notify(str(exc), severity="warning")
            return
        if len(text) > MAX_MESSAGE_CHARS:
            self.notify(
                f"Message is {len(text):,} characters; the limit is {MAX_MESSAGE_CHARS:,} — shorten it (it is still in the prompt)",
                severity="error",
            )
            return
        if self.running and not self.saving:
            self.notify("An answer is still streaming — wait or press Esc to cancel it; your text stays here", severity="warning")
            return
        if self.mol.runtime_error:
            self.notify(f"Cannot send: {self.mol.runtime_error}", severity="error")
            return
        self.prompt.remember(text)
        self.prompt.load_text("")
        if not self.mol.model_ready or self.saving:
            reason = "the last answer is saved" if self.saving else "the model is ready"
            bubble = await self.chat_log.add_user(text, queued=reason)
            self.pending.append((text, bubble))
            return
        bubble = await self.chat_log.add_user(text)
        await self.start_turn(text, bubble)

    async def start_turn(self, text: str, bubble: UserMessage, continue_task: str | None = None) -> None:
        if self.session is None:
            self.session = self.mol.runtime.session(None)  # type: ignore[union-attr]
        self.turn_id += 1
        self.cancel_event = threading.Event()
        self.running = True
        self.saving = False
        self.turn_done.clear()
        self.current_text = text
        self.current_user = bubble
        self.current_answer = await self.chat_log.add_assistant()
        self.show_state()
        self.run_turn(self.turn_id, text, self.session, self.cancel_event, continue_task)

    @work(thread=True, exclusive=True, group="turn", exit_on_error=False)
    def run_turn(
        self, turn_id: int, text: str, session: Session, cancel: threading.Event, continue_task: str | None = None
    ) -> None:
        from mol_local.errors import TurnCancelled
        from mol_local.turn import TurnHooks

        hooks = TurnHooks(
            on_route=lambda r: self.post_message(RouteDecided(turn_id, r.slot, r.raw_output, r.fallback, r.latency_ms, r.mode)),
            on_token=lambda piece: self.post_message(TokenStreamed(turn_id, piece)),
            on_answer=lambda answer: self.post_message(AnswerDelivered(turn_id, answer)),
            on_draft=lambda draft: self.post_message(ViewDrafted(turn_id, draft)),
        )
        try:
            result = session.run_turn(text, cancel=cancel, hooks=hooks, continue_task=continue_task)
        except user_errors() as exc:
            self.post_message(TurnFailed(turn_id, text, str(exc), cancelled=isinstance(exc, TurnCancelled)))
            return
        finally:
            self.turn_done.set()
        task = session.tasks[-1]
        tools = [m.content for m in task.messages if m.role == "tool"]
        self.post_message(
            TurnCompleted(turn_id, result.conversation_id, result.task_id, result.slot, result.answer, dict(result.timings_ms), tools,
                          list(result.memory_changes), list(result.notices))
        )
        session.prewarm()  # while the user reads: the next turn on any slot prefills only its message

    @on(RouteDecided)
    def routed(self, event: RouteDecided) -> None:
        if event.turn_id == self.turn_id and self.current_answer is not None:
            names = self.mol.runtime.slot_names()  # type: ignore[union-attr]
            self.current_answer.set_badge(event.slot, names.get(event.slot, event.slot))
            self.current_answer.route = {"slot": event.slot, "raw_output": event.raw_output, "fallback": event.fallback, "mode": event.mode}

    @on(TokenStreamed)
    async def streamed(self, event: TokenStreamed) -> None:
        if event.turn_id == self.turn_id and self.current_answer is not None:
            await self.current_answer.stream(event.piece)

    @on(ViewDrafted)
    async def drafted(self, event: ViewDrafted) -> None:
        if event.turn_id == self.turn_id and self.current_answer is not None:
            await self.current_answer.show_draft(event.draft)

    @on(AnswerDelivered)
    async def delivered(self, event: AnswerDelivered) -> None:
        """The person has the answer: the prompt takes the next message now (queued until this turn is saved)."""
        if event.turn_id != self.turn_id or self.current_answer is None:
            return
        await self.current_answer.finish(event.answer)
        self.saving = True
        self.show_state()

    @on(TurnCompleted)
    async def completed(self, event: TurnCompleted) -> None:
        if event.turn_id != self.turn_id or self.current_answer is None:
            return
        answer = self.current_answer
        names = self.mol.runtime.slot_names()  # type: ignore[union-attr]
        answer.set_badge(event.slot, names.get(event.slot, event.slot))
        answer.task_id = event.task_id
        await answer.finish(event.answer)
        if event.slot == "L3":
            from app.widgets.genui.mount import mount_ui_view

            await mount_ui_view(self, answer, event.task_id)
            await answer.drop_draft()
        if event.tool_outputs:
            await answer.add_tool_outputs(event.tool_outputs)
        for notice in event.notices:  # a list edit's "Removed Flour.", a remote's fallback: said, not only logged
            await answer.add_note(notice)
        for change in event.memory_changes:
            await answer.add_note(f"{change.line()}  (Ctrl+Z undoes)")
        self.last_memory_changes = list(event.memory_changes)
        answer.set_details(route_lines(answer.route) + self.memory_lines_of(event.task_id) + timing_lines(event.timings_ms))
        self.running = self.saving = False
        self.current_answer = None
        self.refresh_sidebar(select=event.conversation_id)
        self.show_state()
        await self.drain_queue()

    def memory_lines_of(self, task_id: str) -> list[str]:
        return memory_lines(self.memories_used(task_id))

    @on(TurnFailed)
    async def failed(self, event: TurnFailed) -> None:
        if event.turn_id != self.turn_id:
            return
        for widget in (self.current_answer, self.current_user):
            if widget is not None:
                await widget.remove()
        self.current_answer = self.current_user = None
        self.prompt.restore(event.text)
        self.prompt.focus()
        self.running = self.saving = False  # last: whoever waits for the turn to end sees the bubbles gone and the text back
        self.show_state()
        if event.cancelled:
            self.notify("Cancelled — nothing was saved; your message is back in the prompt", severity="warning")
        else:
            self.notify(event.error, severity="error", timeout=10)
        await self.drain_queue()

    def on_worker_state_changed(self, event) -> None:
        """The edge for bugs, not user errors: an unexpected exception in a turn must not close the app."""
        from textual.worker import WorkerState

        if event.worker.group == "turn" and event.state == WorkerState.ERROR:
            self.post_message(TurnFailed(self.turn_id, self.current_text, f"Internal error: {event.worker.error!r} — please report it"))

    # -- actions ---------------------------------------------------------------
    def action_cancel_turn(self) -> None:
        """Esc: stop the answer being written, else withdraw the last queued message; it never cancels the
        background saving of an answer the person already has."""
        if self.running and not self.saving:
            self.cancel_event.set()
        elif self.pending:
            text, bubble = self.pending.pop()
            bubble.remove()
            self.prompt.restore(text)
            self.notify("Queued message withdrawn — it is back in the prompt")

    def action_undo_memory(self) -> None:
        if not self.last_memory_changes or self.mol.runtime is None:
            self.notify("No memory change to undo")
            return
        changes, self.last_memory_changes = self.last_memory_changes, []
        self.undo_memory(changes)

    @work(thread=True, exclusive=True, group="memory-undo", exit_on_error=False)
    def undo_memory(self, changes: list) -> None:
        from mol_local.extract import undo_change

        runtime = self.mol.runtime
        assert runtime is not None
        try:
            for change in changes:
                undo_change(runtime, change)
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        self.worker_noted(f"Undone: {'; '.join(c.line() for c in changes)}")

    def action_toggle_details(self) -> None:
        bubbles = list(self.query(AssistantMessage))
        if not bubbles:
            return
        from textual.widgets import Collapsible

        details = [b.query_one(".details", Collapsible) for b in bubbles]
        expand = all(d.collapsed for d in details)
        for d in details:
            d.collapsed = not expand

    def action_toggle_sidebar(self) -> None:
        self.sidebar.display = not self.sidebar.display

    def action_focus_prompt(self) -> None:
        self.prompt.focus()

    def action_search_conversations(self) -> None:
        self.sidebar.display = True
        self.sidebar.search.focus()

    @on(Input.Changed, "#conversation-search")
    def search_changed(self, event: Input.Changed) -> None:
        self.refresh_sidebar()

    @on(Input.Submitted, "#conversation-search")
    def search_submitted(self, event: Input.Submitted) -> None:
        self.sidebar.options.focus()

    @on(ConversationSelected)
    async def conversation_selected(self, event: ConversationSelected) -> None:
        await self.open_conversation(event.conversation_id)
