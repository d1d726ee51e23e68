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
from hcp.files import MAX_HCP_BYTES, read_text
from hcp.model import HCP, AdapterRef, SlotConfig
from hcp.schema import SLOT_LABELS
from hcp.validate import PROFILES_DIR, build_hcp

__all__ = ["HCP", "PROFILES_DIR", "SLOT_LABELS", "AdapterRef", "SlotConfig", "load_hcp", "load_profile", "parse_hcp", "profile_path"]


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def parse_toml(text: str, *, source: Path | None = None) -> tomlkit.TOMLDocument:
    """Parse keeping comments and layout (for edits); raise HCPSyntaxError naming the line."""
    if len(text) > MAX_HCP_BYTES or len(text.encode("utf-8")) > MAX_HCP_BYTES:
        raise HCPError(f"{source or 'the HCP'} is over {MAX_HCP_BYTES:,} bytes — an HCP is a few KB; remove what does not belong in it")
    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise HCPSyntaxError(f"{source or 'HCP'} is not valid TOML ({exc}) — fix the syntax at that line") from exc
    except RecursionError:
        raise HCPSyntaxError(f"{source or 'HCP'} nests tables or arrays too deeply — write it flatter") from None


def parse_hcp(text: str, *, source: Path | None = None) -> HCP:
    """Validate an HCP TOML string; raise an HCPError subclass naming the first problem."""
    return build_hcp(_plain(parse_toml(text, source=source)), source)


def load_hcp(path: Path) -> HCP:
    """A regular file of at most 1 MB (a FIFO, device or folder is refused before a byte is read)."""
    path = Path(path)
    text = read_text(path, fix="pass an existing .toml file or use a profile name")
    return parse_hcp(text, source=path)


def profile_path(name: str) -> Path:
    path = PROFILES_DIR / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
        raise HCPError(f"Unknown profile {name!r} — use one of: {', '.join(known)}")
    return path


def load_profile(name: str) -> HCP:
    return load_hcp(profile_path(name))
