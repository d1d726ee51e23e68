"""The "run now" panel: a progress bar over the current slot's optimizer steps and a log of every event."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, Log, ProgressBar


def describe(event: dict) -> str:
    """One log line for a trainer/nightly.py progress event."""
    stage, slot = event.get("stage"), event.get("slot", "-")
    if stage == "step":
        return (
            f"[{slot}] step {event['step']}/{event['steps']} · loss {event['loss']:.3f} · "
            f"{event['tokens_per_s']:.0f} tok/s · {event['rss_mb']:.0f} MiB"
        )
    if stage == "selected":
        sel = event.get("selected", {})
        return f"[{slot}] selected {sel.get('train', 0)} to train, {sel.get('holdout', 0)} held out, {sel.get('replay', 0)} replayed"
    if stage == "finished":
        return f"[{slot}] {event['status']}: {event['reason']}"
    if stage == "lock":
        return f"recovered a stale lock from pid {event.get('stale_recovered', {}).get('pid')}"
    if stage == "train":
        return f"[{slot}] training on {event.get('examples', 0)} examples"
    words = {"score_before": "scoring the active adapter on tonight's held-out turns", "export": "exporting to GGUF and checking parity",
             "score_after": "scoring the candidate (held-out, regression set, routing)"}
    return f"[{slot}] {words.get(str(stage), stage)}"


class TrainingProgress(Vertical):
    """Fed by TrainingProgressed messages; the bar is indeterminate between training steps."""

    def compose(self) -> ComposeResult:
        yield Label("Not running — n runs the nightly job now, d does a dry run (select only).", id="trainer-run-status")
        yield ProgressBar(total=1, show_eta=False, id="trainer-bar")
        yield Log(id="trainer-log", max_lines=500)

    def begin(self, dry_run: bool) -> None:
        self.query_one(Log).clear()
        self.query_one(ProgressBar).update(total=None, progress=0)
        self.status("Dry run: selecting data…" if dry_run else "Running the nightly job… (s stops it; the next run resumes)")

    def status(self, text: str) -> None:
        self.query_one("#trainer-run-status", Label).update(text)

    def advance(self, event: dict) -> None:
        bar = self.query_one(ProgressBar)
        if event.get("stage") == "step":
            bar.update(total=event["steps"], progress=event["step"])
            self.status(f"Training {event.get('slot', '')}: step {event['step']}/{event['steps']}")
        elif event.get("stage") in ("selected", "score_before", "export", "score_after"):
            bar.update(total=None)
        self.write(describe(event))

    def write(self, line: str) -> None:
        self.query_one(Log).write_line(line)

    def end(self, text: str) -> None:
        self.query_one(ProgressBar).update(total=1, progress=1)
        self.status(text)
