"""User-facing errors of generative UI: one line naming the problem and the fix."""

from __future__ import annotations

from mol_local.errors import MolError


class GenUIError(MolError):
    """Base class for generative-UI errors."""


class InvalidDocument(GenUIError):
    """A UI document does not parse or breaks a catalog rule; `problems` lists every rule broken."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


class UnknownView(GenUIError):
    """No stored view has this id."""


class BadAction(GenUIError):
    """An action cannot run: unknown id, wrong value type, or a tool that is not bindable."""
