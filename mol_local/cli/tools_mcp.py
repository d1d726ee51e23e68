"""`mol tools mcp list|test NAME`: the HCP's MCP servers, whether each starts, and the tools it offers."""

from __future__ import annotations

import difflib
import json
import time
from pathlib import Path
from typing import Any

import click

from hcp import HCP
from mol_local.cli.common import emit_json
from mol_local.cli.tools import tools
from mol_local.harness.errors import HarnessError
from mol_local.harness.mcp import McpHub
from mol_local.harness.mcp_tools import McpTools
from mol_local.paths import mol_home


class McpNotConfigured(HarnessError):
    """`mol tools mcp test NAME` named a server the HCP does not have."""


def _hcp(ctx: click.Context) -> HCP:
    from mol_local.runtime import load_default_hcp

    path = (ctx.obj or {}).get("hcp")
    return load_default_hcp(Path(path) if path else None)


def report(hcp: HCP, names: list[str] | None = None) -> list[dict[str, Any]]:
    """Start each server (fresh, in parallel), list its tools, stop it; one row per server."""
    servers = {n: s for n, s in hcp.tools.mcp.items() if names is None or n in names}
    hub = McpHub(servers, mol_home() / "logs")
    policy = McpTools(hub)
    t0 = time.perf_counter()
    try:
        listed = hub.tools()
        problems = hub.problems()
    finally:
        hub.close()
    rows = []
    for name, cfg in servers.items():
        tools_ = [t for t in listed.values() if t.server == name]
        rows.append({
            "name": name,
            "transport": cfg.url or " ".join([cfg.command, *cfg.args]),
            "enabled": cfg.enabled,
            "problem": None if cfg.enabled else "disabled (tools.mcp.%s.enabled = false)" % name,
            "tools": [{"name": t.full_name, "doc": t.description, "destructive": t.destructive, "asks": policy.needs_approval(t)}
                      for t in sorted(tools_, key=lambda t: t.name)],
            "seconds": round(time.perf_counter() - t0, 2),
        })
        rows[-1]["problem"] = problems.get(name, rows[-1]["problem"])
    return rows


def lines(hcp: HCP) -> list[tuple[str, str]]:
    """`mol doctor`: one line per MCP server."""
    out = []
    for row in report(hcp):
        asks = sum(t["asks"] for t in row["tools"])
        state = row["problem"] or f"{len(row['tools'])} tools ({asks} ask first)"
        out.append((f"mcp {row['name']}", state))
    return out


@tools.group()
def mcp() -> None:
    """MCP tool servers from the HCP ([tools.mcp.<name>])."""


@mcp.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """Each server: does it start, which tools it offers, which ask before they run."""
    rows = report(_hcp(ctx))
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("no MCP servers — add one: [tools.mcp.NAME] command = \"...\" (see hcp/SCHEMA.md)")
    for row in rows:
        click.echo(f"{row['name']}  {row['transport']}  — {row['problem'] or str(len(row['tools'])) + ' tools'}")
        for t in row["tools"]:
            marks = ("  [destructive]" if t["destructive"] else "") + ("  [asks]" if t["asks"] else "")
            click.echo(f"  {t['name']}{marks}  {t['doc']}")


@mcp.command()
@click.argument("name")
@click.option("--call", "tool", help="Also call this tool (its name on the server) once.")
@click.option("--args", "args_json", default="{}", show_default=True, help="Arguments for --call, a JSON object.")
@click.pass_context
def test(ctx: click.Context, name: str, tool: str | None, args_json: str) -> None:
    """Start server NAME, list its tools (and call one with --call); exit 1 with the problem if it fails."""
    hcp = _hcp(ctx)
    if name not in hcp.tools.mcp:
        guess = difflib.get_close_matches(name, list(hcp.tools.mcp), n=1)
        hint = f"did you mean {guess[0]!r}? " if guess else ""
        raise McpNotConfigured(f"no MCP server {name!r} in this HCP — {hint}configured: {', '.join(hcp.tools.mcp) or '(none)'}")
    hub = McpHub({name: hcp.tools.mcp[name]}, mol_home() / "logs")
    try:
        t0 = time.perf_counter()
        listed = hub.tools()
        started = time.perf_counter() - t0
        if name in hub.problems():
            raise click.ClickException(f"{name}: {hub.problems()[name]}")
        click.echo(f"{name}: started in {started:.2f} s, {len(listed)} tools: {', '.join(sorted(listed))}")
        if tool:
            try:
                args = json.loads(args_json)
            except ValueError as exc:
                raise click.BadParameter(f"not JSON ({exc}) — e.g. --args '{{\"a\": 1}}'", param_hint="--args") from None
            text, size, is_error, ms = hub.connection(name).call(tool, args)
            click.echo(f"{name}.{tool}: {'error' if is_error else 'ok'} in {ms:.1f} ms, {size} bytes")
            click.echo(text[:2000])
            if is_error:
                ctx.exit(1)
    finally:
        hub.close()
