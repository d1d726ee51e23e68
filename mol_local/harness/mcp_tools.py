"""MCP tools as harness ToolSpecs: `<server>.<tool>`, checked like the built-ins, asked for when the HCP says so.

Arguments are checked twice: names and JSON types by `validate_args` (the same
errors the built-ins give, with the same "call it as ..." fix), then the whole
object against the tool's own inputSchema. Who may run what:

- a tool on the server's `allow` list runs (`"*"` allows every tool the server
  does not mark destructive; a destructive one must be named);
- any other tool needs the person: the app asks (allow once / always / deny)
  through `Approver`; where nobody can be asked (`mol serve`, `mol chat`) the
  call is refused with the HCP key that would allow it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mol_local.harness.errors import BadArguments, McpFailed, NeedsApproval
from mol_local.harness.mcp import McpHub, McpTool
from mol_local.harness.spec import Param, ToolOutcome, ToolSpec
from mol_local.structured import validation_problem

Approver = Callable[[McpTool, dict[str, Any]], str]  # -> "once" | "always" | "deny"
_TYPES: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict, "array": list}


def _params(schema: dict[str, Any]) -> tuple[Param, ...]:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = set(schema.get("required") or ())
    out = []
    for name, prop in props.items():
        kind = prop.get("type") if isinstance(prop, dict) else None
        doc = str(prop.get("description", "")) if isinstance(prop, dict) else ""
        out.append(Param(name, _TYPES.get(kind, object) if isinstance(kind, str) else object, doc[:120], name in required))
    return tuple(out)


class McpTools:
    """The runtime's MCP tools and the policy for running them."""

    def __init__(self, hub: McpHub, approver: Approver | None = None) -> None:
        self.hub = hub
        self.approver = approver
        self.always: set[str] = set()  # "always" answers, for this runtime's life

    def specs(self) -> dict[str, ToolSpec]:
        return {name: self._spec(tool) for name, tool in self.hub.tools().items()}

    def describe_lines(self) -> list[str]:
        """One line per MCP tool for the system head (sorted: the head must not change between visits)."""
        specs = self.specs()
        lines = []
        for name in sorted(specs):
            spec = specs[name]
            sig = ", ".join(p.name + ("" if p.required else "?") for p in spec.params)
            lines.append(f"- {name}({sig}): {spec.doc or 'a tool of the MCP server ' + name.split('.')[0]}")
        return lines

    def needs_approval(self, tool: McpTool) -> bool:
        allow = self.hub.servers[tool.server].allow
        if tool.full_name in self.always or tool.name in allow:
            return False
        return not ("*" in allow and not tool.destructive)

    def _spec(self, tool: McpTool) -> ToolSpec:
        return ToolSpec(tool.full_name, tool.description, _params(tool.schema), lambda _ctx, args: self.run(tool, args))

    def run(self, tool: McpTool, args: dict[str, Any]) -> ToolOutcome:
        problem = validation_problem(tool.schema, args) if tool.schema else None
        if problem:
            raise BadArguments(f"{tool.full_name} arguments do not match its schema ({problem})")
        if self.needs_approval(tool):
            self._ask(tool, args)
        cfg = self.hub.servers[tool.server]
        text, size, is_error, _ms = self.hub.connection(tool.server).call(tool.name, args)
        limit = cfg.max_result_kb * 1024
        if size > limit:
            raise McpFailed(f"{tool.full_name} returned {_size(size)}; the limit is {cfg.max_result_kb} KB "
                            f"(tools.mcp.{tool.server}.max_result_kb) — ask it for less")
        if is_error:
            return ToolOutcome(f"Error: {tool.full_name} failed: {' '.join(text.split())[:500]}", "error")
        return ToolOutcome(text)

    def _ask(self, tool: McpTool, args: dict[str, Any]) -> None:
        marked = " (the server marks it destructive)" if tool.destructive else ""
        if self.approver is None:
            raise NeedsApproval(f"{tool.full_name}{marked} needs the person's approval and nobody can be asked here — "
                                f"add {tool.name!r} to tools.mcp.{tool.server}.allow to let it run; answer without it for now")
        answer = self.approver(tool, args)
        if answer == "always":
            self.always.add(tool.full_name)
        elif answer != "once":
            raise NeedsApproval(f"the person declined {tool.full_name}{marked} — do not call it again for this; answer without it")


def _size(n: int) -> str:
    return f"{n / 1_048_576:.1f} MB" if n >= 1_048_576 else f"{n / 1024:.0f} KB"
