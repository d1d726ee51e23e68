"""The tool harness: a confined Python REPL per conversation, built-in tools, validated tool reuse, audit.

`ToolHub` (one per runtime) hands each conversation a `Harness`, the turn
loop's ToolRunner. `protections()` says which sandbox layers hold on this
machine (for `mol doctor` and `mol tools sandbox`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from mol_local.harness.calls import from_openai_tool_calls, merge_tool_call_deltas
from mol_local.harness.errors import HarnessError
from mol_local.harness.hub import ToolHub
from mol_local.harness.limits import ToolLimits, ToolsConfig, tools_config
from mol_local.harness.runner import Harness, MemoryPort

__all__ = [
    "Harness", "HarnessError", "MemoryPort", "ToolHub", "ToolLimits", "ToolsConfig", "build_hub",
    "from_openai_tool_calls", "merge_tool_call_deltas", "protections", "tools_config",
]


def build_hub(
    hcp: Any, db: Database, *, home: Path, memory: Callable[[], MemoryPort] | None = None
) -> ToolHub | None:
    """The runtime's hub from the HCP's `[tools]` (defaults when absent); None when no tool is enabled."""
    from mol_local.harness.hcp_record import HcpSkillRecorder
    from mol_local.harness.mcp import McpHub
    from mol_local.harness.mcp_tools import McpTools

    config = tools_config(hcp)
    servers = getattr(getattr(hcp, "tools", None), "mcp", None) or {}
    if not config.enabled_tools() and not any(s.enabled for s in servers.values()):
        return None
    recorder = HcpSkillRecorder(home, getattr(hcp, "source", None))
    mcp = McpTools(McpHub(servers, home / "logs")) if servers else None
    return ToolHub(db, config, home=home, memory=memory, recorder=recorder, mcp=mcp)


def protections() -> dict[str, str]:
    """Start a throwaway sandbox and report what confines it: {area: mechanism} ('' = none)."""
    from mol_local.harness.sandbox import Sandbox

    with tempfile.TemporaryDirectory(prefix="mol-probe-") as tmp:
        box = Sandbox(Path(tmp) / "ws", ToolLimits(timeout_s=10))
        try:
            box.start()
            return dict(box.protections)
        finally:
            box.close()

