"""F4 settings: HCP profile, model path, threads, remote endpoint + key, theme.

Saving checks everything first on a worker thread (model readable, endpoint up,
key stored in the OS keyring), then records ONE new HCP version through
mol_local.services (hcp.store.VersionStore) and reloads the runtime. On any problem a notification
names it and the form keeps every value typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Header, Input, Label, Select

from app.backend import user_errors
from app.messages import SettingsChecked, SettingsSaved
from app.screens.base import MolScreen


@dataclass(frozen=True)
class SettingsForm:
    profile: str
    model: str
    threads: str
    endpoint: str
    api_key: str



class SettingsScreen(MolScreen[None]):
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__(id="settings-screen")
        self.saving = False

    def compose(self) -> ComposeResult:
        runtime = self.mol.runtime
        hcp = runtime.hcp if runtime else None
        from mol_local.services import profile_names

        profiles = profile_names()
        current = hcp.name if hcp and hcp.name in profiles else (profiles[0] if profiles else "")
        yield Header(icon="◆")
        with VerticalScroll(id="settings-form"):
            yield Label("HCP profile (changing it starts from that shipped profile)", classes="field-label")
            yield Select([(p, p) for p in profiles], value=current, allow_blank=False, id="profile")
            yield Label("Base model (.gguf path or builtin:smollm2-135m)", classes="field-label")
            yield Input(hcp.base_model if hcp else "builtin:smollm2-135m", id="model")
            yield Label("CPU threads", classes="field-label")
            yield Input(str(hcp.threads if hcp else 2), id="threads", restrict=r"[0-9]*", max_length=3)
            yield Label("Remote endpoint (OpenAI-compatible base URL; empty = none)", classes="field-label")
            yield Input(hcp.remote.base_url if hcp else "", placeholder="http://127.0.0.1:8765/v1", id="endpoint")
            yield Label("Remote API key (stored in the OS keyring, never in the HCP; empty = unchanged)", classes="field-label")
            yield Input("", password=True, id="api-key")
            yield Label("Theme (applies now)", classes="field-label")
            yield Select([(t, t) for t in sorted(self.app.available_themes)], value=self.app.theme, allow_blank=False, id="theme")
            with Horizontal(id="settings-buttons"):
                yield Button("Save (Ctrl+S)", id="save", variant="primary")
                yield Button("Back (Esc)", id="back")
            yield Label("", id="settings-note")
        yield Footer()

    def on_mount(self) -> None:
        note = "Saving records a new HCP version (`mol hcp history`) and reloads the model."
        if self.mol.runtime is None:
            note = "Your data is still opening; values shown are the defaults."
        self.query_one("#settings-note", Label).update(note)
        self.query_one("#model", Input).focus()

    def form(self) -> SettingsForm:
        value = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        return SettingsForm(
            profile=str(self.query_one("#profile", Select).value),
            model=value("model"),
            threads=value("threads"),
            endpoint=value("endpoint").strip(),
            api_key=value("api-key"),
        )

    @on(Select.Changed, "#theme")
    def theme_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.app.theme:
            self.app.theme = event.value

    @on(Button.Pressed, "#save")
    def save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#back")
    def back_pressed(self) -> None:
        self.app.pop_screen()

    def action_save(self) -> None:
        if self.saving:
            return
        self.saving = True
        self.query_one("#settings-note", Label).update("checking…")
        self.save(self.form())

    @work(thread=True, exclusive=True, group="settings", exit_on_error=False)
    def save(self, form: SettingsForm) -> None:
        try:
            reason = self._apply(form)
        except user_errors() as exc:
            self.post_message(SettingsChecked(error=str(exc)))
            return
        self.post_message(SettingsChecked(reason, bool(form.api_key)))

    def on_settings_checked(self, event: SettingsChecked) -> None:
        if event.error is not None:
            self._failed(event.error)
        else:
            self._saved(event.reason, event.key_stored)

    def _apply(self, form: SettingsForm) -> str:
        """Check, store the key, and commit one HCP version; return the version's reason ('' = no change)."""
        from mol_local.keys import REMOTE_KEY_ENV, remote_key_name, set_secret
        from mol_local.services import hcp_update, switch_profile

        from app.settings_check import check_model, check_remote, check_threads

        runtime = self.mol.runtime
        hcp = runtime.hcp if runtime else None
        threads = check_threads(form.threads)
        if hcp is None or form.model.strip() != hcp.base_model:  # the loaded model was already checked by loading it
            check_model(form.model, hcp.base_dir if hcp else None)
        if form.endpoint:
            check_remote(form.endpoint)
        if form.api_key:
            set_secret(remote_key_name(form.profile), form.api_key, env_hint=REMOTE_KEY_ENV)
        changes = {"runtime.base_model": form.model.strip(), "runtime.threads": threads, "remote.base_url": form.endpoint}
        if hcp is None or form.profile != hcp.name:
            reason = f"settings: profile {form.profile}"
            switch_profile(form.profile, changes, reason)
            return reason
        old = {"runtime.base_model": hcp.base_model, "runtime.threads": hcp.threads, "remote.base_url": hcp.remote.base_url}
        changed = {k: v for k, v in changes.items() if old[k] != v}
        if not changed:
            return ""
        reason = "settings: " + ", ".join(f"{k} = {v!r}" for k, v in changed.items())
        hcp_update(changed, reason)
        return reason

    def _failed(self, error: str) -> None:
        self.saving = False
        self.query_one("#settings-note", Label).update(f"✗ {error}")
        self.notify(error, title="Settings not saved", severity="error", timeout=10)

    def _saved(self, reason: str, key_stored: bool) -> None:
        from mol_local.paths import mol_home

        self.saving = False
        self.query_one("#api-key", Input).value = ""
        if key_stored:
            self.notify("Remote API key stored in the OS keyring")
        if not reason:
            self.query_one("#settings-note", Label).update("Nothing changed in the HCP.")
            if not key_stored:
                self.notify("Nothing to save — no setting changed")
            return
        self.app.pop_screen()
        self.mol.post_message(SettingsSaved(mol_home() / "hcp.toml", reason))

    def on_worker_state_changed(self, event) -> None:
        """Edge for bugs: an unexpected exception while saving is reported, not a crash."""
        from textual.worker import WorkerState

        if event.worker.group == "settings" and event.state == WorkerState.ERROR:
            self._failed(f"Unexpected error while saving: {event.worker.error!r} — nothing was saved")
