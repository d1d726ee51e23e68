"""ToolHub: the runtime's one harness object; hands out a Harness per conversation.

It owns what is shared (stores, the skills registry, the enabled tool set, the
description block for system heads) and caps how many sandbox processes live
at once: the least recently used one is stopped, and its conversation is told
on its next Python call that its variables are gone.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path

from sqlite_utils import Database

from mol_local.harness.builtins import BUILTINS, FAMILY_DOCS, skill_spec
from mol_local.harness.errors import BadArguments
from mol_local.harness.limits import ToolsConfig
from mol_local.harness.mcp_tools import McpTools
from mol_local.harness.runner import Harness, MemoryPort, ToolContext
from mol_local.harness.skills import PromotionReport, SkillRecorder, SkillStore
from mol_local.harness.spec import TOOLS_HEADER, ToolSpec, describe_tools
from mol_local.harness.store import AuditLog, NotesStore, RemindersStore

SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TOOLS_WITH_PYTHON = ("save_tool", "promote_tool")  # writing helpers is part of the Python harness
MAX_LIVE_SANDBOXES = 4


class ToolHub:
    def __init__(
        self,
        db: Database,
        config: ToolsConfig,
        *,
        home: Path,
        memory: Callable[[], MemoryPort] | None = None,
        max_live: int = MAX_LIVE_SANDBOXES,
        recorder: SkillRecorder | None = None,
        mcp: McpTools | None = None,
    ) -> None:
        self.db = db
        self.config = config
        self.home = Path(home)
        self.notes = NotesStore(db)
        self.reminders = RemindersStore(db)
        self.audit = AuditLog(db)
        self.skills = SkillStore(db, self.home / "tools", recorder=recorder)
        self.max_live = max_live
        self._memory_factory = memory
        self._memory: MemoryPort | None = None
        self._harnesses: dict[str, Harness] = {}
        self._lock = threading.Lock()
        self.mcp = mcp  # MCP servers' tools (HCP [tools.mcp.<name>]), `<server>.<tool>`

    # -- which tools exist ---------------------------------------------------------------------
    def builtin_names(self) -> list[str]:
        enabled = list(self.config.enabled_tools())
        if "python" in enabled:
            enabled += [t for t in TOOLS_WITH_PYTHON if t not in enabled]
        if self._memory_factory is None:
            enabled = [t for t in enabled if not t.startswith("memory.")]
        return [t for t in enabled if t in BUILTINS]

    def specs(self) -> dict[str, ToolSpec]:
        """Enabled built-ins, every promoted tool (read live, so a promotion applies at once), MCP servers' tools."""
        out = self._own_specs()
        if self.mcp is not None:
            for name, spec in self.mcp.specs().items():
                out.setdefault(name, spec)
        return out

    def live_choices(self, *, limit: int = 200) -> dict[str, dict[str, list[str]]]:
        """The ids that exist now, for the arguments that name one (see harness.spec.call_schema): the open
        reminders for `reminders.complete`, the newest notes for `notes.read`. The embedded base made up ids
        ("day-01") or ran one on ("000…") until its token cap; with none open, the call is not offered."""
        reminders = [r["id"] for r in self.reminders.list()][:limit]
        notes = [r["id"] for r in self.db.query("select id from notes order by updated_at desc limit ?", [limit])]
        return {"reminders.complete": {"id": reminders}, "notes.read": {"id": notes}}

    def _own_specs(self) -> dict[str, ToolSpec]:
        out = {name: BUILTINS[name] for name in self.builtin_names()}
        if "python" in out:
            for info in self.skills.promoted():
                out.setdefault(info.name, skill_spec(info))
        return out

    def describe(self) -> str:
        text = describe_tools(list(self._own_specs().values()), FAMILY_DOCS)
        extra = self.mcp.describe_lines() if self.mcp is not None else []
        if not extra:
            return text
        return "\n".join([text or "\n".join(TOOLS_HEADER), *extra])

    # -- conversations -------------------------------------------------------------------------
    def workspace(self, conversation_id: str) -> Path:
        if not SAFE_ID.match(conversation_id):
            raise BadArguments(f"conversation id {conversation_id!r} cannot name a folder — use letters, digits, - and _")
        return self.home / "workspace" / conversation_id

    def runner(self, conversation_id: str) -> Harness:
        with self._lock:
            harness = self._harnesses.get(conversation_id)
            if harness is None:
                ctx = ToolContext(
                    conversation_id=conversation_id,
                    workspace=self.workspace(conversation_id),
                    config=self.config,
                    notes=self.notes,
                    reminders=self.reminders,
                    skills=self.skills,
                    memory=None,
                    sandbox=lambda: harness.sandbox(),  # type: ignore[union-attr]
                    promote=self.promote,
                )
                harness = Harness(ctx, self.specs, self.audit, on_sandbox_start=self._make_room)
                self._harnesses[conversation_id] = harness
            if any(t.startswith("memory.") for t in self.builtin_names()):
                harness.ctx.memory = self.memory()
            return harness

    def memory(self) -> MemoryPort | None:
        if self._memory is None and self._memory_factory is not None:
            self._memory = self._memory_factory()
        return self._memory

    def promote(self, name: str) -> PromotionReport:
        return self.skills.promote(name, self.config.limits_for("python"))

    def _make_room(self, starting: Harness) -> None:
        """Before a sandbox starts: stop the least recently used ones beyond the cap."""
        live = [h for h in self._harnesses.values() if h is not starting and h.sandbox_alive]
        live.sort(key=lambda h: h.last_used)
        for harness in live[: max(0, len(live) - self.max_live + 1)]:
            harness.evict(f"it was stopped to make room: at most {self.max_live} Python sessions run at once")

    def close(self) -> None:
        with self._lock:
            for harness in self._harnesses.values():
                harness.close()
            self._harnesses.clear()
        if self.mcp is not None:
            self.mcp.hub.close()
