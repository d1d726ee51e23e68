"""Tool settings: which tools are enabled and the limits each runs under.

The HCP owns these (`[tools]`: `enabled` and per-tool `timeout_s`, `cpu_s`,
`memory_mb`, `output_kb`, `disk_mb`). `tools_config(hcp)` reads them when the loaded HCP
has them and falls back to the defaults here otherwise, so the harness works
with an HCP that predates the `tools` section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from hcp.schema import TOOL_FAMILIES as FAMILIES  # one table: an `enabled` entry names a family or one dotted tool

DEFAULT_ENABLED: tuple[str, ...] = tuple(FAMILIES)


@dataclass(frozen=True)
class ToolLimits:
    """Limits for one tool call. Memory also caps the size of any file the sandbox writes."""

    timeout_s: float = 10.0  # wall clock; past it the sandbox is killed and restarted (state lost)
    cpu_s: float = 5.0  # CPU seconds per call; past it the call fails but variables are kept
    memory_mb: int = 512  # address space of the sandbox process
    output_kb: int = 64  # printed output and returned value kept per call; the rest is cut
    disk_mb: int = 1024  # total the workspace may hold on disk; past it no file can grow


@dataclass(frozen=True)
class ToolsConfig:
    enabled: tuple[str, ...] = DEFAULT_ENABLED
    default_limits: ToolLimits = ToolLimits()
    limits: Mapping[str, ToolLimits] = field(default_factory=lambda: MappingProxyType({}))

    def limits_for(self, tool: str) -> ToolLimits:
        """A tool's own limits, else its family's (`notes.find` -> `notes`), else the defaults."""
        family = tool.split(".", 1)[0]
        return self.limits.get(tool) or self.limits.get(family) or self.default_limits

    def enabled_tools(self) -> tuple[str, ...]:
        out: list[str] = []
        for entry in self.enabled:
            for name in FAMILIES.get(entry, (entry,)):
                if name not in out:
                    out.append(name)
        return tuple(out)


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


def _limits(raw: Any, base: ToolLimits) -> ToolLimits:
    if isinstance(raw, ToolLimits):
        return raw
    values = {f.name: _get(raw, f.name) for f in fields(ToolLimits)}
    return replace(base, **{k: v for k, v in values.items() if v is not None})


def tools_config(hcp: Any) -> ToolsConfig:
    """Read `hcp.tools` (an object or a mapping) when the HCP has one; defaults otherwise.

    The HCP validates the values; this only maps them. Per-tool limits may sit in
    `tools.limits.<tool>` (the HCP object calls them `overrides`) or directly in
    `tools.<tool>` tables.
    """
    raw = getattr(hcp, "tools", None)
    if raw is None:
        return ToolsConfig()
    enabled = _get(raw, "enabled")
    base = _limits(_get(raw, "defaults") or {}, ToolLimits())
    table = _get(raw, "limits") or _get(raw, "overrides") or {}
    per_tool: dict[str, ToolLimits] = {}
    names = set(FAMILIES) | {t for fam in FAMILIES.values() for t in fam} | set(table if isinstance(table, Mapping) else ())
    for name in names:
        entry = _get(table, name) if table else None
        if entry is None and isinstance(raw, Mapping) and isinstance(raw.get(name), Mapping):
            entry = raw[name]
        if entry is not None:
            per_tool[name] = _limits(entry, base)
    return ToolsConfig(
        enabled=tuple(enabled) if enabled is not None else DEFAULT_ENABLED,
        default_limits=base,
        limits=MappingProxyType(per_tool),
    )
