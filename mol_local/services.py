"""What the app needs beside the turn, in one place: HCP versions and profiles, consent, training runs,
the nightly timer, and the record types its widgets show.

The app imports only `mol_local` (tests/app/test_layering.py); these functions are the ways in to
`hcp`, `memory` and `trainer` it used to reach for itself, each a thin call with the arguments the
runtime already knows, so a screen cannot, for instance, write an HCP version outside `$MOL_HOME`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the record types the app's widgets show; nothing heavy is imported at app start
    from hcp.store import Version
    from memory.consent import ConsentState
    from memory.store import MemoryRow as MemoryRow  # re-exported for the app's annotations
    from memory.timeline import TaskRecord as TaskRecord  # re-exported for the app's annotations
    from mol_local.runtime import Runtime
    from trainer.history import GatePoint, TrainerRun
    from trainer.nightly import Options as NightlyOptions

__all__ = [  # the record types above are for annotations only (import them under TYPE_CHECKING)
    "consent_overview", "gate_series", "hcp_update", "nightly_options", "profile_names", "recent_runs", "run_nightly",
    "schedule_change", "schedule_status", "switch_profile",
]


def profile_names() -> list[str]:
    """The shipped HCP profiles a person can switch to."""
    from hcp.validate import PROFILES_DIR

    return sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))


def hcp_update(changes: Mapping[str, Any], reason: str) -> Version:
    """One new HCP version in $MOL_HOME with `changes` (dotted keys) applied to the current one."""
    from hcp.store import VersionStore
    from mol_local.paths import mol_home

    return VersionStore(mol_home()).update(changes, reason=reason)


def switch_profile(profile: str, changes: Mapping[str, Any], reason: str) -> Version:
    """One new HCP version: the shipped `profile` with `changes` applied (the person's settings carried over)."""
    from hcp.edit import set_key
    from hcp.loader import parse_toml, profile_path
    from hcp.store import VersionStore
    from mol_local.paths import mol_home

    doc = parse_toml(profile_path(profile).read_text(encoding="utf-8"))
    for key, value in changes.items():
        set_key(doc, key, value)
    return VersionStore(mol_home()).replace(doc.as_string(), reason=reason)


def consent_overview(runtime: Runtime) -> list[ConsentState]:
    """Every conversation's training consent, the HCP default applied."""
    from memory.consent import consent_overview as overview

    return overview(runtime.db, default_on=runtime.hcp.consent.default)


def recent_runs(runtime: Runtime, n: int) -> list[TrainerRun]:
    from trainer.history import recent_runs as runs

    return runs(runtime.db, n)


def gate_series(runtime: Runtime) -> list[GatePoint]:
    """The evaluation gate's scores per promoted or refused revision, oldest first."""
    from mol_local.adapters.registry import Registry
    from trainer.history import gate_series as series

    return series(Registry(runtime.adapters_root()))


def nightly_options(**fields: Any) -> NightlyOptions:
    """The nightly job's options (trainer.nightly.Options) with `fields` set."""
    from trainer.nightly import Options

    return Options(**fields)


def run_nightly(runtime: Runtime, options: NightlyOptions, on_event: Callable[[dict], None]) -> dict:
    from trainer.nightly import run_nightly as run

    return run(runtime, options, on_event=on_event)


def schedule_status() -> dict:
    """The nightly timer as systemd/launchd see it (runs a command: call it off the UI thread)."""
    from trainer import schedule

    return schedule.status()


def schedule_change(action: str, at: str = "") -> dict:
    """Install the nightly timer daily at `at` ("install") or remove it ("remove")."""
    from trainer import schedule

    return schedule.install(at) if action == "install" else schedule.remove()
