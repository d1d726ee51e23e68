"""User-facing errors of the nightly trainer. One line each: the problem and the fix.

They subclass MolError so the CLI edge prints `Error: <msg>` and exits non-zero.
"""

from __future__ import annotations

from mol_local.errors import MolError


class TrainerError(MolError):
    """Base class of trainer problems."""


class BudgetError(TrainerError):
    """The HCP time/memory budget cannot fit even one training step."""


class LockHeld(TrainerError):
    """Another consolidation run holds the lock and is alive."""


class ScheduleUnsupported(TrainerError):
    """This system has no scheduler we can write to (no systemd user session / launchd / schtasks)."""


class ExportFailed(TrainerError):
    """Writing or checking the exported GGUF failed; nothing was registered."""


class ParityFailed(ExportFailed):
    """llama.cpp and transformers disagree on what the exported adapter does."""
