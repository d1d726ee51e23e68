"""User-facing errors raised by the app itself (shown as notifications, one line each)."""

from __future__ import annotations

from mol_local.errors import MolError


class SettingsError(MolError):
    """A value typed in the settings screen cannot be used; the message names the field and the fix."""


class TrainingStopped(MolError):
    """The user stopped a running nightly job; its checkpoint stays, so the next run resumes."""
