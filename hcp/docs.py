"""Render hcp.schema as Markdown (hcp/SCHEMA.md, `mol hcp schema`) or as plain data (`--json`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hcp.schema import BUILTIN_TOOLS, COLLECTIONS, SECTIONS, TOOL_FAMILIES, Key

SCHEMA_MD = Path(__file__).parent / "SCHEMA.md"

_INTRO = """# HCP schema

An HCP is one TOML file that configures one assistant. The active one is
`$MOL_HOME/hcp.toml` (else the shipped `local-default` profile); shipped
profiles live in `hcp/profiles/` (`local-default`, `tall`, `venti-remote`).
Every key below is optional unless marked required; unknown keys are errors
(with a did-you-mean). Paths may use `~` and are relative to the HCP file.

Secrets never go here: any key-like field (`api_key`, `token`, `password`,
`secret`, ...) is rejected; `mol remote login` keeps keys in the OS keyring.

Versions: `mol hcp set KEY VALUE --reason "..."`, edits in the app and
accepted trainer changes each write `$MOL_HOME/hcp/versions/NNNN.toml` and a
row in `$MOL_HOME/hcp/index.json` (parent, reason, author user|trainer|import,
timestamp, sha256). Comments and layout survive edits. See `mol hcp history`,
`mol hcp diff A B`, `mol hcp rollback N`, `mol hcp validate FILE`.

This file is generated from `hcp/schema.py` (`mol hcp schema > hcp/SCHEMA.md`).
"""


def _default(key: Key) -> str:
    if key.default is None:
        return "required" if key.required else "—"
    return "`" + json.dumps(key.default) + "`"


def _rows(keys: dict[str, Key]) -> list[str]:
    out = ["| key | type | default | allowed | meaning |", "|---|---|---|---|---|"]
    for name, key in keys.items():
        out.append(f"| `{name}` | {key.kind} | {_default(key)} | {key.describe().replace('|', '/')} | {key.doc} |")
    return out


def render_markdown() -> str:
    parts = [_INTRO]
    for name, section in SECTIONS.items():
        parts.append(f"## {'[' + name + ']' if name else 'Top level'}\n\n{section.doc}\n")
        parts.append("\n".join(_rows(section.keys)) + "\n")
    for name, col in COLLECTIONS.items():
        entry = "<label>" if col.names else "<name>"
        names = f" Names: {', '.join(col.names)}." if col.names else " Names: lowercase letters, digits, `_`, dots."
        parts.append(f"## [{name}.{entry}]\n\n{col.doc}{names}\n")
        parts.append("\n".join(_rows(col.keys)) + "\n")
    parts.append("## Built-in tools\n\nA family in `tools.enabled` enables all its tools.\n")
    parts.append("\n".join(f"- `{family}`: {', '.join(f'`{t}`' for t in tools)}" for family, tools in TOOL_FAMILIES.items()) + "\n")
    return "\n".join(parts)


def schema_data() -> dict[str, Any]:
    def keys(spec: dict[str, Key]) -> dict[str, Any]:
        return {
            k: {"type": v.kind, "default": v.default, "allowed": v.describe(), "required": v.required, "doc": v.doc}
            for k, v in spec.items()
        }

    return {
        "sections": {name or "(top)": {"doc": s.doc, "keys": keys(s.keys)} for name, s in SECTIONS.items()},
        "tables": {name: {"doc": c.doc, "names": list(c.names or ()), "keys": keys(c.keys)} for name, c in COLLECTIONS.items()},
        "builtin_tools": list(BUILTIN_TOOLS),
    }
