"""The harness as the turn loop's ToolRunner: one per conversation.

`Harness.run(call, slot=...)` never raises for anything the model did: a
malformed call, an invented tool, bad arguments, a tool that fails or hits a
limit all come back as text starting with `Error:` that says how to recover,
and every call — refused ones included — is written to the audit log.
"""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from mol_local.harness.errors import HarnessError, UnknownTool
from mol_local.harness.limits import ToolLimits, ToolsConfig
from mol_local.harness.sandbox import Sandbox
from mol_local.harness.skills import PromotionReport, SkillStore
from mol_local.harness.spec import ToolOutcome, ToolSpec, validate_args
from mol_local.harness.store import AuditEntry, AuditLog, NotesStore, RemindersStore
from mol_local.turn.tasks import ToolCall

MAX_AUDIT_ARGS = 4000
NOTE_ROOM = 4096  # room for the notes a tool appends after cutting its output to output_kb


class MemoryPort(Protocol):
    """What memory.search / memory.remember need from the memory store."""

    def search(self, query: str, k: int, *, conversation_id: str | None = None) -> list[str]:
        """Texts of the k nearest memories; with `conversation_id`, they count as in that turn's view."""
        ...

    def remember(self, text: str, *, conversation_id: str | None) -> str: ...


@dataclass
class ToolContext:
    """Everything a tool handler may touch, for one conversation."""

    conversation_id: str
    workspace: Path
    config: ToolsConfig
    notes: NotesStore
    reminders: RemindersStore
    skills: SkillStore
    memory: MemoryPort | None
    sandbox: Callable[[], Sandbox]
    promote: Callable[[str], PromotionReport]

    def limits(self, tool: str) -> ToolLimits:
        return self.config.limits_for(tool)


class Harness:
    """ToolRunner for one conversation. `tools()` is asked on every call, so promotions show up at once."""

    def __init__(self, ctx: ToolContext, tools: Callable[[], Mapping[str, ToolSpec]], audit: AuditLog,
                 on_sandbox_start: Callable[[Harness], None] | None = None) -> None:
        self.ctx = ctx
        self.tools = tools
        self.audit = audit
        self._sandbox: Sandbox | None = None
        self._on_start = on_sandbox_start
        self.last_used = 0.0

    @property
    def conversation_id(self) -> str:
        return self.ctx.conversation_id

    def sandbox(self) -> Sandbox:
        """This conversation's persistent Python process (created on first use)."""
        if self._sandbox is None:
            self._sandbox = Sandbox(self.ctx.workspace, self.ctx.limits("python"), protect=self._protected())
        if not self._sandbox.alive and self._on_start is not None:
            self._on_start(self)
        return self._sandbox

    def _protected(self) -> tuple[Path, ...]:
        """The user's data folder (outside this workspace) is unreadable from the sandbox."""
        return (self.ctx.workspace.parent.parent,)

    @property
    def sandbox_alive(self) -> bool:
        return self._sandbox is not None and self._sandbox.alive

    def evict(self, reason: str) -> None:
        if self._sandbox is not None:
            self._sandbox.discard(reason)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()

    # -- the ToolRunner protocol ----------------------------------------------------------------
    def run(self, call: ToolCall, *, slot: str) -> str:
        return self.run_detailed(call, slot=slot)[0]

    def run_detailed(self, call: ToolCall, *, slot: str) -> tuple[str, str]:
        """(the text the model reads, the audit status)."""
        t0 = time.perf_counter()
        self.last_used = time.monotonic()
        outcome = self._dispatch(call)  # a tool's writes are transactions of their own (memory.db.transaction)
        cap = self.ctx.limits(call.name or "python").output_kb * 1024 + NOTE_ROOM
        text = outcome.text.encode("utf-8", "replace").decode("utf-8")
        if len(text) > cap:  # a safety net: tools cut their own output and say how
            text = text[:cap] + f"\n[result cut at {cap // 1024} KB]"
        self._record(call, slot, outcome.status, text, t0)
        return text, outcome.status

    def _record(self, call: ToolCall, slot: str, status: str, text: str, t0: float) -> None:
        arguments = call.raw if call.error else json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
        self.audit.record(AuditEntry(
            conversation_id=self.ctx.conversation_id,
            slot=slot,
            tool=call.name or "(unparsed)",
            arguments=arguments.encode("utf-8", "replace").decode("utf-8")[:MAX_AUDIT_ARGS],
            status=status,
            result_chars=len(text),
            duration_ms=round((time.perf_counter() - t0) * 1000, 3),
        ))

    def _dispatch(self, call: ToolCall) -> ToolOutcome:
        if call.refused:
            return ToolOutcome(f"Error: {call.refused}", "denied")
        if call.error:
            return ToolOutcome(
                f"Error: {call.error} — write the call as "
                '<tool_call>{"name": "TOOL", "arguments": {...}}</tool_call> with valid JSON (double quotes, no trailing commas)',
                "bad_arguments",
            )
        tools = self.tools()
        try:
            spec = tools.get(call.name)
            if spec is None:
                raise unknown_tool(call.name, list(tools))
            return spec.handler(self.ctx, validate_args(spec, call.arguments))
        except HarnessError as exc:
            return ToolOutcome(f"Error: {exc}", exc.status)


def unknown_tool(name: str, available: list[str]) -> UnknownTool:
    guess = difflib.get_close_matches(name, available, n=1, cutoff=0.5)
    hint = f"did you mean {guess[0]!r}? " if guess else ""
    return UnknownTool(f"there is no tool named {name!r} — {hint}use one of: {', '.join(sorted(available))}")
