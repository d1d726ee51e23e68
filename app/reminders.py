"""Due reminders surface as notifications while the app runs (the harness's RemindersStore is the source)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

CHECK_EVERY_S = 30.0


class ReminderWatch:
    """Remembers which due reminders were already shown in this run, so each one notifies once."""

    def __init__(self, runtime: Runtime) -> None:
        from mol_local.harness.store import RemindersStore

        self.store = RemindersStore(runtime.db)
        self.shown: set[str] = set()

    def new_due(self) -> list[dict]:
        fresh = [r for r in self.store.due() if r["id"] not in self.shown]
        self.shown.update(r["id"] for r in fresh)
        return fresh
