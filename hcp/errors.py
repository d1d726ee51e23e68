"""User-facing HCP errors: each names the key path, the bad value and the fix."""

from __future__ import annotations


class HCPError(Exception):
    """An HCP document could not be loaded or validated."""


class HCPSyntaxError(HCPError):
    """The document is not valid TOML (or not UTF-8)."""


class HCPValidationError(HCPError):
    """A key is unknown, has the wrong type, is out of range or names something undefined."""


class HCPSecretError(HCPValidationError):
    """A key-like field (API key, token, password) was found: secrets belong in the OS keyring."""


class HCPFileError(HCPError):
    """A path the HCP names (base model, adapter, persona, skill) is missing or unusable."""


class HCPVersionError(HCPError):
    """The version history cannot do what was asked (missing/cyclic target, damaged index)."""
