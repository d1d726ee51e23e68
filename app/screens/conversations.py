"""Conversation actions of the chat screen: open, new, rename, delete (forget), consent, search, export.

All data goes through the runtime's objects (timeline, memory); nothing here
opens SQLite. Deleting is forgetting: the conversation's rows, its memories'
vectors and marks on adapters trained on it (memory.forget).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from app.backend import user_errors
from app.messages import ConversationForgotten, ConversationsChanged
from app.screens.base import MolScreen
from app.screens.modals import Confirm, TextPrompt

if TYPE_CHECKING:
    from app.widgets.chat.log import ChatLog
    from app.widgets.conversations.sidebar import ConversationSidebar
    from mol_local.runtime import Runtime
    from mol_local.turn import Session


class ConversationActions(MolScreen[None]):
    """ChatScreen's base for the conversation actions; expects its `sidebar`, `chat_log`, `session` and `running`."""

    session: Session | None
    running: bool
    sidebar: ConversationSidebar
    chat_log: ChatLog

    def _runtime(self) -> Runtime | None:
        runtime = self.mol.runtime
        if runtime is None:
            self.notify("Your data is still opening — try again in a moment", severity="warning")
        return runtime

    def title_of(self, conversation_id: str) -> str:
        runtime = self.mol.runtime
        if runtime is None or not runtime.timeline.conversation_exists(conversation_id):
            return "new conversation"
        rows = [r for r in runtime.timeline.list_conversations() if r["id"] == conversation_id]
        return rows[0]["title"] if rows else "new conversation"

    def memories_used(self, task_id: str) -> list[str]:
        """Texts of the memories a task's view held (through the memory store's recorded uses)."""
        runtime = self.mol.runtime
        assert runtime is not None
        store = runtime.memory.store
        rows = store.by_ids(store.uses(task_id))
        return [rows[i].text for i in store.uses(task_id) if i in rows]

    def consent_map(self) -> dict[str, bool]:
        runtime = self.mol.runtime
        assert runtime is not None
        return runtime.timeline.consent_states(default_on=runtime.hcp.consent.default)

    def refresh_sidebar(self, select: str | None = None) -> None:
        runtime = self.mol.runtime
        if runtime is None or not self.query("#sidebar"):
            return  # not composed yet, or already torn down at exit
        needle = self.sidebar.search.value.strip()
        rows = runtime.timeline.search_conversations(needle) if needle else runtime.timeline.list_conversations()
        current = select or (self.session.conversation_id if self.session else None)
        self.sidebar.show(rows, self.consent_map(), current)

    def on_conversations_changed(self, event: ConversationsChanged) -> None:
        self.refresh_sidebar(select=event.select)

    def _target(self) -> str | None:
        """The conversation an action applies to: the highlighted row if the list has focus, else the open one."""
        if self.sidebar.options.has_focus:
            return self.sidebar.highlighted_id()
        if self.session is not None and self.mol.runtime and self.mol.runtime.timeline.conversation_exists(self.session.conversation_id):
            return self.session.conversation_id
        return self.sidebar.highlighted_id()

    async def open_conversation(self, conversation_id: str | None) -> None:
        runtime = self._runtime()
        if runtime is None:
            return
        if self.running:
            self.notify(self.busy_line(), severity="warning")
            return
        leaving = self.session
        try:
            self.session = runtime.session(conversation_id)
        except user_errors() as exc:
            self.notify(str(exc), severity="error")
            self.refresh_sidebar()
            return
        await self.chat_log.load(self.session.tasks, runtime.slot_names(), runtime.timeline.route_decision, self.memories_used)
        if self.mol.model_ready:
            self.warm(self.session, leaving)  # type: ignore[attr-defined]
        await self.redraw_views()
        self.refresh_sidebar(select=conversation_id)
        self.show_state()  # type: ignore[attr-defined]
        self.prompt.focus()  # type: ignore[attr-defined]

    async def redraw_views(self) -> None:
        """L3 answers of the opened conversation become live views again (document + state from SQLite)."""
        from app.widgets.chat.bubbles import AssistantMessage
        from app.widgets.genui.mount import mount_stored_views
        from mol_local.turn.ui import UI_SLOT

        bubbles = [b for b in self.chat_log.query(AssistantMessage) if b.slot == UI_SLOT]
        if bubbles:
            await mount_stored_views(self, bubbles)  # type: ignore[arg-type]
            self.chat_log.scroll_end(animate=False)

    async def action_new_conversation(self) -> None:
        await self.open_conversation(None)

    def action_rename_conversation(self) -> None:
        runtime = self._runtime()
        target = self._target()
        if runtime is None:
            return
        if target is None:
            self.notify("Nothing to rename — send a message first; the conversation is saved with it", severity="warning")
            return

        def renamed(title: str | None) -> None:
            if title is None:
                return
            try:
                runtime.timeline.rename_conversation(target, title)
            except user_errors() as exc:
                self.notify(str(exc), severity="error")
                return
            self.refresh_sidebar(select=target)
            self.show_state()  # type: ignore[attr-defined]

        self.app.push_screen(TextPrompt("Rename conversation", self.title_of(target)), renamed)

    def action_delete_conversation(self) -> None:
        runtime = self._runtime()
        target = self._target()
        if runtime is None:
            return
        if target is None:
            self.notify("Nothing to delete — pick a saved conversation in the sidebar", severity="warning")
            return
        if self.running:
            self.notify(self.busy_line(), severity="warning")
            return
        title = self.title_of(target)

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.forget_conversation(target, title)

        question = f"Delete {title!r}? Its messages and memories are forgotten for good, and adapters trained on it are marked for retraining."
        self.app.push_screen(Confirm(question), confirmed)

    @work(thread=True, exclusive=True, group="forget", exit_on_error=False)
    def forget_conversation(self, conversation_id: str, title: str) -> None:
        """Off the UI thread: forgetting may open the vector index."""
        from mol_local.forget import forget_conversation

        runtime = self.mol.runtime
        assert runtime is not None
        try:
            report = forget_conversation(runtime, conversation_id)
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        self.post_message(ConversationForgotten(conversation_id, title, report.tasks, len(report.memories)))

    async def on_conversation_forgotten(self, event: ConversationForgotten) -> None:
        self.notify(f"Deleted {event.title!r}: {event.tasks} turns and {event.memories} memories forgotten")
        if self.session is not None and self.session.conversation_id == event.conversation_id:
            await self.open_conversation(None)
        else:
            self.refresh_sidebar()

    def action_toggle_consent(self) -> None:
        runtime = self._runtime()
        target = self._target()
        if runtime is None:
            return
        if target is None:
            self.notify("Consent belongs to a saved conversation — send a message first, then press Ctrl+T", severity="warning")
            return
        on = not self.consent_map().get(target, runtime.hcp.consent.default)
        try:
            runtime.timeline.set_consent(target, on)
        except user_errors() as exc:
            self.notify(str(exc), severity="error")
            return
        self.refresh_sidebar(select=target)
        state = "ON — it may train your personal adapters" if on else "OFF — it will not be used for training"
        self.notify(f"Training consent for {self.title_of(target)!r}: {state}")

    def action_export_conversation(self) -> None:
        """Ask where to save the open (or highlighted) conversation; the file's suffix picks the format."""
        from pathlib import Path

        runtime = self._runtime()
        target = self._target()
        if runtime is None:
            return
        if target is None:
            self.notify("Nothing to export — send a message first; the conversation is saved with it", severity="warning")
            return

        def chosen(path: str | None) -> None:
            if path is not None:
                self.export_conversation(target, Path(path).expanduser())

        default = str(Path.home() / f"mol-{target[:8]}.md")
        self.app.push_screen(TextPrompt("Export to (.md for people, .json or .jsonl with everything)", default, max_length=1000), chosen)

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def export_conversation(self, conversation_id: str, path) -> None:
        from mol_local.chat_io import export_to

        runtime = self.mol.runtime
        assert runtime is not None
        try:
            written = export_to(runtime, [conversation_id], path)
        except user_errors() as exc:
            self.worker_failed(str(exc))
            return
        self.worker_noted(f"Exported {self.title_of(conversation_id)!r} to {written}")
