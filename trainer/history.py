"""What the nightly job has done, for people: recent runs with their gate verdicts, and the gate metric
across personal revisions. Read-only; nightly.py writes `trainer_runs`, the registry writes manifests."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

from sqlite_utils import Database

from mol_local.adapters.registry import SLOTS, Registry

GATE_METRIC = "new_gain_rel"  # relative held-out NLL gain: the gate's main check (trainer/gate.py decide)


@dataclass(frozen=True)
class TrainerRun:
    id: str
    slot: str
    started_at: str
    finished_at: str | None
    status: str  # promoted | rejected | paused | failed
    reason: str
    revision: str | None
    metrics: dict

    @property
    def gate_value(self) -> float | None:
        return _number(self.metrics.get(GATE_METRIC))


@dataclass(frozen=True)
class GatePoint:
    slot: str
    revision: str
    created_at: str
    value: float


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None


def _json(text: str | None) -> dict:
    try:
        data = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def recent_runs(db: Database, limit: int = 20) -> list[TrainerRun]:
    """The newest `limit` slot attempts, newest first."""
    rows = db.query(
        "select id, slot, started_at, finished_at, status, reason, revision, metrics from trainer_runs order by started_at desc, rowid desc limit ?",
        [limit],
    )
    return [
        TrainerRun(r["id"], r["slot"], r["started_at"] or "", r["finished_at"], r["status"] or "", r["reason"] or "", r["revision"], _json(r["metrics"]))
        for r in rows
    ]


def gate_series(registry: Registry, slots: tuple[str, ...] = SLOTS) -> list[GatePoint]:
    """The gate metric recorded in each personal revision's eval evidence, oldest first (revisions without it are skipped)."""
    points = []
    for slot in slots:
        for rev in registry.revisions(slot, "personal"):
            value = _number((rev.manifest.get("eval") or {}).get(GATE_METRIC))
            if value is not None:
                points.append(GatePoint(slot, rev.revision, str(rev.manifest.get("created_at", "")), value))
    return sorted(points, key=lambda p: (p.created_at, p.slot, p.revision))
