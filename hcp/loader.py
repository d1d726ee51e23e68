"""Load an HCP document (tomlkit) into the typed, frozen HCP.

The schema lives in hcp.schema, validation in hcp.validate, file checks in
hcp.references; this module is the entry point: text or path -> HCP.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

from hcp.errors import HCPError, HCPSyntaxError
from hcp.model import HCP, AdapterRef, SlotConfig
from hcp.schema import SLOT_LABELS
from hcp.validate import PROFILES_DIR, build_hcp

__all__ = ["HCP", "PROFILES_DIR", "SLOT_LABELS", "AdapterRef", "SlotConfig", "load_hcp", "load_profile", "parse_hcp", "profile_path"]


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def parse_toml(text: str, *, source: Path | None = None) -> tomlkit.TOMLDocument:
    """Parse keeping comments and layout (for edits); raise HCPSyntaxError naming the line."""
    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise HCPSyntaxError(f"{source or 'HCP'} is not valid TOML ({exc}) — fix the syntax at that line") from exc


def parse_hcp(text: str, *, source: Path | None = None) -> HCP:
    """Validate an HCP TOML string; raise an HCPError subclass naming the first problem."""
    return build_hcp(_plain(parse_toml(text, source=source)), source)


def load_hcp(path: Path) -> HCP:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise HCPError(f"HCP file not found: {path} — pass an existing file or use a profile name") from exc
    except UnicodeDecodeError as exc:
        raise HCPSyntaxError(f"{path} is not UTF-8 text — save it as UTF-8") from exc
    return parse_hcp(text, source=path)


def profile_path(name: str) -> Path:
    path = PROFILES_DIR / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
        raise HCPError(f"Unknown profile {name!r} — use one of: {', '.join(known)}")
    return path


def load_profile(name: str) -> HCP:
    return load_hcp(profile_path(name))
