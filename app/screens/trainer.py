"""F6 trainer: the opt-in switch, the schedule, the last runs with their gate verdicts, a chart of the gate
metric across personal revisions, and "run now" with a live progress bar and log.

The opt-in writes HCP trainer.enabled as a new HCP version (hcp.store.VersionStore, like the settings
screen) and updates the open runtime's HCP in place: the trainer section does not touch the model, so
nothing reloads. The job runs in this process on a worker thread; its progress callback posts messages
(and raises TrainingStopped once the worker is cancelled, so `s`, or quitting, stops it at the next event;
the checkpoint stays and the next run resumes). The app installs this screen, so a run keeps reporting
while you are elsewhere.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Label, Static, Switch
from textual.worker import Worker, WorkerState, get_current_worker

from app.backend import user_errors
from app.errors import TrainingStopped
from app.messages import ScheduleChanged, ScheduleRead, TrainerOptInChanged, TrainingFailed, TrainingFinished, TrainingProgressed
from app.screens.base import MolScreen
from app.screens.modals import Confirm
from app.widgets.trainer.progress import TrainingProgress
from app.widgets.trainer.runs import GateChart, RunsTable

if TYPE_CHECKING:
    from mol_local.services import NightlyOptions as Options

RUNS_SHOWN = 20
NOT_OPEN = "Your data is still opening — press Esc and come back in a moment."


class TrainerScreen(MolScreen[None]):
    BINDINGS = [
        Binding("o", "toggle_opt_in", "Opt in/out"),
        Binding("n", "run_now", "Run now"),
        Binding("d", "dry_run", "Dry run"),
        Binding("s", "stop", "Stop"),
        Binding("i", "install_schedule", "Install timer"),
        Binding("u", "remove_schedule", "Remove timer"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, options: Options | None = None) -> None:
        """`options` are the nightly job's (tests pass tiny training sizes); the default is the real job."""
        super().__init__(id="trainer-screen")
        self.options = options
        self.running = False

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with VerticalScroll(id="trainer-body"):
            with Horizontal(id="trainer-optin"):
                yield Switch(False, id="trainer-enabled")
                yield Label("Nightly training of your personal adapters (HCP trainer.enabled)", id="trainer-optin-label")
            yield Static("", id="trainer-consent")
            yield Static("Schedule: checking the OS scheduler…", id="trainer-schedule")
            yield Label("Last runs (gate verdict and why)", classes="section-title")
            yield RunsTable(id="trainer-runs")
            yield GateChart(id="trainer-chart")
            yield Label("Run now", classes="section-title")
            yield TrainingProgress(id="trainer-progress")
        yield Footer()

    def on_screen_resume(self) -> None:
        self.refresh_view()
        self.query_one(RunsTable).focus()

    # -- what is shown ---------------------------------------------------------
    def refresh_view(self) -> None:
        """Re-read the HCP flag, consent, runs and revisions (SQLite + manifests: fast), then the scheduler off-thread."""
        from mol_local.services import consent_overview, gate_series, recent_runs

        runtime = self.mol.runtime
        consent = self.query_one("#trainer-consent", Static)
        if runtime is None:
            consent.update(NOT_OPEN)
            return
        switch = self.query_one(Switch)
        with self.prevent(Switch.Changed):
            switch.value = runtime.hcp.trainer.enabled
        states = consent_overview(runtime)
        on = sum(s.on for s in states)
        hint = "" if on else " — turn it on per conversation with Ctrl+T in the chat"
        state = "ON" if runtime.hcp.trainer.enabled else "OFF (o turns it on)"
        consent.update(f"Training is {state} · {on} of {len(states)} conversations allow training{hint}")
        self.query_one(RunsTable).show(recent_runs(runtime, RUNS_SHOWN))
        self.query_one(GateChart).show(gate_series(runtime), runtime.hcp.trainer.gate.new_data_gain_min_rel)
        self.check_schedule(runtime.hcp.trainer.schedule)

    @work(thread=True, exclusive=True, group="trainer-schedule", exit_on_error=False)
    def check_schedule(self, at: str) -> None:
        """`mol train schedule status` (it runs systemctl/launchctl, so never on the UI thread)."""
        from mol_local.services import schedule_status

        try:
            info = schedule_status()
        except user_errors() as exc:
            self.post_message(ScheduleRead(f"Schedule: daily at {at} (HCP trainer.schedule) · no timer possible here: {exc}"))
            return
        if info["installed"]:
            active = f", {info['active']}" if info.get("active") else ""
            text = f"Schedule: daily at {at} · {info['scheduler']} timer installed{active} — u removes it"
        else:
            text = f"Schedule: daily at {at} (HCP trainer.schedule) · no {info['scheduler']} timer installed — i installs it"
        self.post_message(ScheduleRead(text))

    def on_schedule_read(self, event: ScheduleRead) -> None:
        self.query_one("#trainer-schedule", Static).update(event.text)

    # -- opt in / out ------------------------------------------------------------
    def action_toggle_opt_in(self) -> None:
        self.query_one(Switch).toggle()

    @on(Switch.Changed, "#trainer-enabled")
    def opt_in_changed(self, event: Switch.Changed) -> None:
        if self.mol.runtime is None:
            with self.prevent(Switch.Changed):
                event.switch.value = not event.value
            self.notify(NOT_OPEN, severity="warning")
            return
        self.write_opt_in(event.value)

    @work(thread=True, exclusive=True, group="trainer-optin", exit_on_error=False)
    def write_opt_in(self, enabled: bool) -> None:
        from mol_local.services import hcp_update

        reason = f"trainer screen: nightly training {'on' if enabled else 'off'}"
        try:
            version = hcp_update({"trainer.enabled": enabled}, reason)
        except user_errors() as exc:
            self.post_message(TrainerOptInChanged(enabled, error=str(exc)))
            return
        self.post_message(TrainerOptInChanged(enabled, version.n))

    def on_trainer_opt_in_changed(self, event: TrainerOptInChanged) -> None:
        if event.error is not None:
            with self.prevent(Switch.Changed):
                self.query_one(Switch).value = not event.enabled
            self.notify(event.error, title="Training setting not saved", severity="error", timeout=10)
            return
        runtime = self.mol.runtime
        if runtime is not None:  # the trainer section does not affect the model: update in place, no reload
            runtime.hcp = replace(runtime.hcp, trainer=replace(runtime.hcp.trainer, enabled=event.enabled))
        self.notify(f"Nightly training {'on' if event.enabled else 'off'} (HCP version {event.version})")
        self.refresh_view()

    # -- run now -------------------------------------------------------------------
    def action_run_now(self) -> None:
        self._start(dry_run=False)

    def action_dry_run(self) -> None:
        self._start(dry_run=True)

    def _start(self, *, dry_run: bool) -> None:
        if self.mol.runtime is None:
            self.notify(NOT_OPEN, severity="warning")
            return
        if self.running:
            self.notify("A run is in progress — wait for it, or press s to stop it", severity="warning")
            return
        self.running = True
        self.query_one(TrainingProgress).begin(dry_run)
        self.run_job(dry_run)

    @work(thread=True, exclusive=True, group="trainer-run", exit_on_error=False)
    def run_job(self, dry_run: bool) -> None:
        from mol_local.services import nightly_options, run_nightly

        worker = get_current_worker()
        runtime = self.mol.runtime
        assert runtime is not None
        opts = replace(self.options or nightly_options(), dry_run=dry_run)

        def on_event(event: dict) -> None:
            if worker.is_cancelled:
                raise TrainingStopped("Stopped — the checkpoint stays, and the next run resumes from it")
            self.post_message(TrainingProgressed(dict(event)))

        try:
            report = run_nightly(runtime, opts, on_event=on_event)
        except TrainingStopped as exc:
            self.post_message(TrainingFailed(str(exc), stopped=True))
            return
        except user_errors() as exc:
            self.post_message(TrainingFailed(str(exc)))
            return
        self.post_message(TrainingFinished(report, dry_run))

    def action_stop(self) -> None:
        if not self.running:
            self.notify("Nothing is running", severity="warning")
            return
        self.workers.cancel_group(self, "trainer-run")
        self.query_one(TrainingProgress).status("Stopping at the next step…")

    def on_training_progressed(self, event: TrainingProgressed) -> None:
        self.query_one(TrainingProgress).advance(event.event)

    def on_training_finished(self, event: TrainingFinished) -> None:
        self.running = False
        panel = self.query_one(TrainingProgress)
        report = event.report
        for row in report["slots"]:
            if row["status"] in ("skipped", "dry_run"):  # slots that ended without a "finished" event
                panel.write(f"[{row['slot']}] {row['status']}: {row.get('reason', '')}")
        if report["status"] == "skipped":
            panel.write(report["message"])
            panel.end(f"Nothing to do: {report['message']}")
            self.notify(report["message"], title="Nightly training skipped", severity="warning", timeout=10)
        else:
            panel.end(("Dry run finished: " if event.dry_run else "Finished: ") + report["message"])
            self.notify(report["message"], title="Dry run finished" if event.dry_run else "Nightly training finished")
        self.refresh_view()

    def on_training_failed(self, event: TrainingFailed) -> None:
        self.running = False
        panel = self.query_one(TrainingProgress)
        panel.write(event.error)
        panel.end(event.error)
        self.notify(event.error, title="Training stopped" if event.stopped else "Training failed", severity="warning" if event.stopped else "error", timeout=10)
        self.refresh_view()

    # -- the OS timer ---------------------------------------------------------------
    def action_install_schedule(self) -> None:
        runtime = self.mol.runtime
        if runtime is None:
            self.notify(NOT_OPEN, severity="warning")
            return
        at = runtime.hcp.trainer.schedule

        def go(yes: bool | None) -> None:
            if yes:
                self.change_schedule("install", at)

        self.app.push_screen(Confirm(f"Install an OS timer that runs `mol train --now` daily at {at}?", yes="Yes, install (y)"), go)

    def action_remove_schedule(self) -> None:
        def go(yes: bool | None) -> None:
            if yes:
                self.change_schedule("remove", "")

        self.app.push_screen(Confirm("Remove the nightly training timer? Nothing trains until you run it or install it again."), go)

    @work(thread=True, exclusive=True, group="trainer-timer", exit_on_error=False)  # not the status group: resuming re-checks it
    def change_schedule(self, action: str, at: str) -> None:
        from mol_local.services import schedule_change

        try:
            out = schedule_change(action, at)
        except user_errors() as exc:
            self.worker_failed(str(exc), title="Timer not changed", timeout=15)
            return
        done = f"installed ({out['scheduler']}, daily at {at})" if action == "install" else f"removed ({len(out['removed'])} files)"
        self.post_message(ScheduleChanged(f"Nightly timer {done}"))

    def on_schedule_changed(self, event: ScheduleChanged) -> None:
        self.notify(event.note)
        self.refresh_view()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Edge for bugs: an unexpected exception in a trainer worker is reported, not a crash."""
        if event.worker.group.startswith("trainer") and event.state == WorkerState.ERROR:
            if event.worker.group == "trainer-run":
                self.post_message(TrainingFailed(f"Unexpected error in the nightly job: {event.worker.error!r} — see `mol train --now`"))
            else:
                self.notify(f"Trainer action failed unexpectedly: {event.worker.error!r}", severity="error")
