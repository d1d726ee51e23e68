"""User-facing HCP errors: each names the key path, the bad value and the fix."""

from __future__ import annotations


class HCPError(Exception):
    """An HCP document could not be loaded or validated."""
