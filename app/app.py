"""MolApp: the App class, its bindings and screen wiring. Everything else lives in screens/ and widgets/."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from app.backend import load_prefs, save_prefs, user_errors
from app.messages import ApprovalAsked, ModelLoaded, RuntimeFailed, RuntimeOpened, SettingsSaved, WorkFailed, WorkNoted
from app.screens.chat import ChatScreen

if TYPE_CHECKING:
    from textual.timer import Timer

    from app.reminders import ReminderWatch
    from mol_local.runtime import Runtime

SAVE_ON_QUIT_S = 60.0  # at quit, how long an answer the person already has may take to be saved
LOAD_ON_QUIT_S = 60.0  # at quit, how long a model still loading may take before the runtime is left to the process exit


class MolApp(App[None]):
    """The mol-local TUI. `runtime` lets a caller (tests) hand over an already open Runtime."""

    CSS_PATH = Path(__file__).parent / "mol.tcss"
    TITLE = "mol-local"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f4", "settings", "Settings"),
        Binding("f5", "adapters", "Adapters"),
        Binding("f6", "trainer", "Trainer"),
        Binding("f7", "models", "Models"),
        Binding("f9", "memory", "Memory"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, hcp_path: Path | None = None, *, runtime: Runtime | None = None) -> None:
        super().__init__()
        self.hcp_path = hcp_path
        self._given_runtime = runtime
        self.runtime: Runtime | None = None
        self.model_ready = False
        self.runtime_error: str | None = None
        self.load_ms: float | None = None
        self.chat = ChatScreen()
        self.reminders: ReminderWatch | None = None
        self.reminder_timer: Timer | None = None
        self._loads: list[threading.Event] = []  # one per loader thread, set once it stopped touching its runtime
        theme = load_prefs().get("theme")
        if isinstance(theme, str) and theme in self.available_themes:
            self.theme = theme

    def get_default_screen(self) -> Screen:
        return self.chat

    def on_ready(self) -> None:
        """Start loading only after the first paint: the loader's imports would compete for the GIL."""
        self.call_after_refresh(self.start_runtime)

    # -- the runtime, off the UI thread ---------------------------------------
    @work(thread=True, exclusive=True, group="runtime", exit_on_error=False)
    def start_runtime(self) -> None:
        """Open HCP + store, then warm the model; each step reports as a message.

        A runtime is never closed while this thread still loads into it (freeing the model
        under llama.cpp's feet crashed the process): closers wait for the loads begun before them."""
        done = threading.Event()
        self._loads.append(done)
        try:
            self._load()
        finally:
            done.set()

    def _load(self) -> None:
        try:
            if self._given_runtime is not None:
                runtime = self._given_runtime
            else:
                from mol_local.runtime import Runtime

                runtime = Runtime.open(self.hcp_path)
        except user_errors() as exc:
            self.post_message(RuntimeFailed(str(exc)))
            return
        self.post_message(RuntimeOpened(runtime))
        t0 = time.perf_counter()
        try:
            runtime.engine  # noqa: B018 - first access loads the model
            runtime.route_stack()  # seeds the shipped adapters; one that cannot be used is in runtime.adapter_problems
            runtime.warm_router(background=True)  # MiniLM loads while the user types; hybrid routes by grammar until then
            if runtime.memory.store.count():
                runtime.memory.warm_up()  # open and check the vector index now, not in the first turn's recall
        except user_errors() as exc:
            self.post_message(RuntimeFailed(str(exc)))
            return
        load_ms = (time.perf_counter() - t0) * 1000
        try:
            from mol_local.catalog.service import base_notes

            notes = base_notes(runtime)
        except user_errors() as exc:  # the model is loaded; a note that cannot be worked out is itself the note
            notes = [str(exc)]
        self.post_message(ModelLoaded(load_ms, notes, runtime))

    async def on_runtime_opened(self, event: RuntimeOpened) -> None:
        from app.reminders import CHECK_EVERY_S, ReminderWatch

        from app.screens.approval import install_approver

        self.runtime = event.runtime
        self.runtime_error = None
        install_approver(self, event.runtime)  # MCP tools that must ask ask here (allow once / always / deny)
        self.sub_title = event.runtime.hcp.name
        await self.chat.runtime_opened()
        self.reminders = ReminderWatch(event.runtime)
        self.check_reminders()
        if self.reminder_timer is None:
            self.reminder_timer = self.set_interval(CHECK_EVERY_S, self.check_reminders)

    def check_reminders(self) -> None:
        from mol_local.harness.store import local_due

        if self.reminders is None:
            return
        for row in self.reminders.new_due():
            self.notify(row["text"], title=f"Reminder · due {local_due(row['due_at'])}", severity="warning", timeout=30)

    async def on_model_loaded(self, event: ModelLoaded) -> None:
        if event.runtime is not self.runtime:  # replaced (settings saved) while it loaded
            return
        self.model_ready = True
        self.load_ms = event.load_ms
        await self.chat.model_loaded()
        for problem in self.runtime.adapter_problems if self.runtime is not None else []:
            self.notify(problem, title="A shipped adapter is not in use", severity="warning", timeout=20)
        for note in event.notes:
            self.notify(note, title="About this base model", severity="warning", timeout=20)

    def on_runtime_failed(self, event: RuntimeFailed) -> None:
        self.runtime_error = event.error
        self.chat.show_state()
        self.notify(event.error, title="mol-local could not start the model", severity="error", timeout=30)

    def on_work_failed(self, event: WorkFailed) -> None:
        self.notify(event.error, title=event.title or "", severity="error", timeout=event.timeout)

    def on_work_noted(self, event: WorkNoted) -> None:
        self.notify(event.text)

    def on_approval_asked(self, event: ApprovalAsked) -> None:
        from app.screens.approval import ToolApproval

        self.push_screen(ToolApproval(event.tool, event.args, event.destructive), event.answered)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The edge for bugs: an unexpected exception while loading is shown, not a crash."""
        if event.worker.group == "runtime" and event.state == WorkerState.ERROR:
            self.post_message(RuntimeFailed(f"Unexpected error while loading: {event.worker.error!r} — run `mol doctor`"))

    async def on_settings_saved(self, event: SettingsSaved) -> None:
        """Reopen the runtime on the changed HCP (new model, threads...)."""
        if self.chat.running:
            self.chat.cancel_event.set()
        old = self.runtime if self._given_runtime is None else None  # a runtime handed to us is the caller's to close
        self.hcp_path = event.hcp_path
        self._given_runtime = None
        self.runtime, self.model_ready, self.runtime_error = None, False, None
        if self.chat.session is not None:
            self.chat.session.stop_prewarm()
        self.chat.session = None
        self.chat.show_state()
        if old is not None:
            self.close_runtime(old, list(self._loads))
        self.notify(f"Settings saved ({event.reason}) — reloading")
        self.start_runtime()

    def save_kv(self, session) -> None:
        """Each slot's view to disk, so opening this conversation next time loads instead of prefilling."""
        try:
            session.save_kv()
        except (OSError, *user_errors()) as exc:  # a full disk must not stop the app from closing
            self.log.warning(f"KV not saved: {exc}")

    @work(thread=True, group="close")
    def close_runtime(self, runtime: Runtime, loads: list[threading.Event]) -> None:
        for done in loads:
            done.wait()
        runtime.close()

    def loads_finished(self, timeout: float) -> bool:
        """Wait (up to `timeout` s in all) until no loader thread touches a runtime any more."""
        deadline = time.monotonic() + timeout
        return all(done.wait(max(0.0, deadline - time.monotonic())) for done in list(self._loads))

    def on_unmount(self) -> None:
        """Release the model we loaded; a streaming turn is cancelled and the process exit frees the rest."""
        if self.chat.session is not None:
            self.chat.session.stop_prewarm()
        if self.chat.saving:  # the person has the answer: let it be saved rather than roll it back
            self.chat.turn_done.wait(SAVE_ON_QUIT_S)
        if not self.chat.turn_done.is_set():
            self.chat.cancel_event.set()
            return
        if self.chat.session is not None and self.model_ready:
            self.save_kv(self.chat.session)
        if not self.loads_finished(LOAD_ON_QUIT_S):  # still loading: closing now would free the model under it
            return
        if self.runtime is not None and self._given_runtime is None:
            self.runtime.close()

    # -- screens ---------------------------------------------------------------
    def action_help(self) -> None:
        from app.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.all_bindings()))

    def action_settings(self) -> None:
        from app.screens.settings import SettingsScreen

        if isinstance(self.screen, SettingsScreen):
            return
        self.push_screen(SettingsScreen())

    def action_adapters(self) -> None:
        from app.screens.adapters import AdaptersScreen

        if not isinstance(self.screen, AdaptersScreen):
            self.push_screen(AdaptersScreen())

    def action_models(self) -> None:
        from app.screens.models import ModelsScreen

        if not isinstance(self.screen, ModelsScreen):
            self.push_screen(ModelsScreen())

    def action_trainer(self) -> None:
        """Installed, not pushed fresh: a run started there keeps reporting while you are elsewhere."""
        from app.screens.trainer import TrainerScreen

        if isinstance(self.screen, TrainerScreen):
            return
        if not self.is_screen_installed("trainer"):
            self.install_screen(TrainerScreen(), "trainer")
        self.push_screen("trainer")

    def action_memory(self) -> None:
        from app.screens.memory import MemoryScreen

        if not isinstance(self.screen, MemoryScreen):
            self.push_screen(MemoryScreen())

    def all_bindings(self) -> list[tuple[str, str]]:
        """Every shown binding of the app and the chat screen, for the help screen."""
        out = [("enter", "Send"), ("ctrl+j", "New line in the prompt"), ("up/down", "Input history"), ("ctrl+p", "Command palette")]
        for binding in [*self.BINDINGS, *ChatScreen.BINDINGS]:
            if isinstance(binding, Binding):
                out.append((binding.key, binding.description or binding.action))
        return out

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        chat = self.chat
        yield SystemCommand("New conversation", "Start an empty conversation (Ctrl+N)", chat.action_new_conversation)
        yield SystemCommand("Rename conversation", "Rename the open conversation (F2)", chat.action_rename_conversation)
        yield SystemCommand("Delete conversation", "Forget the open conversation (F8)", chat.action_delete_conversation)
        yield SystemCommand("Search conversations", "Filter the sidebar (Ctrl+F)", chat.action_search_conversations)
        yield SystemCommand("Export conversation", "Save the open conversation as Markdown, JSON or JSONL", chat.action_export_conversation)
        yield SystemCommand("Toggle training consent", "Allow or refuse training on this conversation (Ctrl+T)", chat.action_toggle_consent)
        yield SystemCommand("Toggle route and timings", "Show how each answer was routed and timed (F3)", chat.action_toggle_details)
        yield SystemCommand("Toggle sidebar", "Show or hide the conversation list (Ctrl+B)", chat.action_toggle_sidebar)
        yield SystemCommand("Cancel answer", "Stop the streaming answer; nothing is saved (Esc)", chat.action_cancel_turn)
        yield SystemCommand("Settings", "HCP profile, model, threads, remote endpoint, theme (F4)", self.action_settings)
        yield SystemCommand("Adapters", "Slot revisions: activate, roll back, export, import (F5)", self.action_adapters)
        yield SystemCommand("Models", "Your GGUFs, whether each fits in memory; use one as the base (F7)", self.action_models)
        yield SystemCommand("Trainer", "Nightly training: opt in, schedule, last runs, run now (F6)", self.action_trainer)
        yield SystemCommand("Memory", "List, search, edit, pin and forget memories (F9)", self.action_memory)
        yield SystemCommand("Help", "Keys and what they do (F1)", self.action_help)

    def watch_theme(self, theme: str) -> None:
        """Remember the theme across runs (app preference, not HCP)."""
        if self.is_running:
            prefs = load_prefs()
            if prefs.get("theme") != theme:
                prefs["theme"] = theme
                save_prefs(prefs)
