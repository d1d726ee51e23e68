"""Last nightly runs with their gate verdicts, and the gate metric across personal revisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Label, Sparkline

if TYPE_CHECKING:
    from mol_local.services import GatePoint, TrainerRun

VERDICT = {"promoted": "✓ promoted", "rejected": "✗ rejected", "paused": "⏸ paused", "failed": "! failed"}


class RunsTable(DataTable):
    """Newest first: when, slot, verdict, revision, the gate metric, and the recorded reason."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        self.add_columns("started", "slot", "verdict", "revision", "gain", "reason")

    def show(self, runs: Sequence[TrainerRun]) -> None:
        self.clear()
        for run in runs:
            gain = f"{run.gate_value:+.1%}" if run.gate_value is not None else "—"
            self.add_row(
                run.started_at[:16].replace("T", " "), run.slot, VERDICT.get(run.status, run.status), run.revision or "—", gain,
                " ".join(run.reason.split())[:90],
            )


class GateChart(Vertical):
    """A sparkline of the gate metric (held-out NLL gain) over personal revisions, oldest to newest."""

    def compose(self) -> ComposeResult:
        yield Label("", id="trainer-chart-label")
        yield Sparkline([], id="trainer-sparkline")

    def show(self, points: Sequence[GatePoint], bar: float | None) -> None:
        label = self.query_one("#trainer-chart-label", Label)
        spark = self.query_one(Sparkline)
        spark.data = [p.value for p in points]
        spark.display = bool(points)
        if not points:
            label.update("Gate metric: no personal revisions yet — the chart fills as the gate promotes them.")
            return
        last = points[-1]
        need = f", gate needs ≥ {bar:+.1%}" if bar is not None else ""
        label.update(
            f"Gate metric (held-out NLL gain) over {len(points)} personal revisions: "
            f"min {min(p.value for p in points):+.1%}, max {max(p.value for p in points):+.1%}, "
            f"last {last.value:+.1%} ({last.slot} {last.revision}){need}"
        )
