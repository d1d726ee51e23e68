"""`mol tools`: list, run, save, promote and demote tools; show the audit log and the sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime
from mol_local.harness.errors import BadArguments, HarnessError
from mol_local.harness.hub import ToolHub
from mol_local.harness.runner import unknown_tool
from mol_local.runtime import Runtime
from mol_local.turn.tasks import ToolCall

CLI_CONVERSATION = "cli"  # `mol tools run` works in its own workspace unless --conversation names one


class ToolsDisabled(HarnessError):
    """The HCP enables no tools."""


def _hub(runtime: Runtime) -> ToolHub:
    hub = runtime.tool_hub
    if hub is None:
        raise ToolsDisabled("no tools are enabled in this HCP — add some to [tools] enabled, e.g. `mol hcp set tools.enabled '[\"python\"]'`")
    return hub


@cli.group()
def tools() -> None:
    """The tool harness: built-in tools, saved helpers, the audit log."""


@tools.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """Callable tools, and every saved helper with its status."""
    hub = _hub(open_runtime(ctx))
    callable_ = [{"name": s.name, "signature": s.signature(), "doc": s.doc} for s in hub.specs().values()]
    saved = hub.skills.list()
    if as_json:
        emit_json({"tools": callable_, "saved": saved})
        return
    for row in callable_:
        click.echo(f"{row['signature']}  — {row['doc']}")
    for row in saved:
        click.echo(f"[{row['status']}] {row['name']}  sha256 {row['sha256'][:12]}  {row['updated_at'][:19]}")


@tools.command()
@click.argument("name")
@click.option("--json", "args_json", default="{}", show_default=True, help="Arguments as a JSON object.")
@click.option("--conversation", "-c", "conversation_id", default=CLI_CONVERSATION, show_default=True, help="Whose workspace and Python session.")
@click.pass_context
def run(ctx: click.Context, name: str, args_json: str, conversation_id: str) -> None:
    """Run tool NAME once, as the model would; the call is audited (slot `cli`)."""
    try:
        args = json.loads(args_json)
    except ValueError as exc:
        raise BadArguments(f"--json is not valid JSON ({exc}) — pass an object, e.g. --json '{{\"code\": \"1+1\"}}'") from exc
    if not isinstance(args, dict):
        raise BadArguments("--json must be a JSON object of arguments, e.g. --json '{\"query\": \"milk\"}'")
    runtime = open_runtime(ctx)
    hub = _hub(runtime)
    if name not in hub.specs():
        raise unknown_tool(name, list(hub.specs()))
    try:
        text, status = hub.runner(conversation_id).run_detailed(ToolCall(name, args, args_json), slot="cli")
    finally:
        hub.close()
    click.echo(text)
    if status != "ok":
        ctx.exit(1)


@tools.command()
@click.argument("name")
@click.option("--source", "source", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True, help="Python file defining NAME(...).")
@click.option("--tests", "tests", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True, help='JSON list of {"args": {...}, "expect": ...}.')
@click.pass_context
def save(ctx: click.Context, name: str, source: Path, tests: Path) -> None:
    """Stage a helper with its held-out tests (not callable until promoted)."""
    texts = []
    for path in (source, tests):
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            raise BadArguments(f"{path} is not UTF-8 text ({exc.reason}) — save it as UTF-8") from exc
    info = _hub(open_runtime(ctx)).skills.save(name, texts[0], texts[1])
    click.echo(f"staged {info.name} (sha256 {info.sha256[:12]}) — run `mol tools promote {info.name}`")


@tools.command()
@click.argument("name")
@click.pass_context
def promote(ctx: click.Context, name: str) -> None:
    """Run NAME's held-out tests in a fresh sandbox; enable it everywhere only if all pass."""
    report = _hub(open_runtime(ctx)).promote(name)
    click.echo(f"promoted {name}: {report.passed} tests passed, sha256 {report.sha256[:12]}" + (f"; {report.hcp}" if report.hcp else ""))


@tools.command()
@click.argument("name")
@click.option("--reason", default="demoted by the user", show_default=True)
@click.pass_context
def demote(ctx: click.Context, name: str, reason: str) -> None:
    """Stop offering NAME to the model (it stays on disk and in the log)."""
    _hub(open_runtime(ctx)).skills.demote(name, reason)
    click.echo(f"demoted {name}")


@tools.command()
@click.option("--conversation", "-c", "conversation_id", help="Only this conversation's calls.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--events", is_flag=True, help="Show saved-tool events (staged, promoted, rejected, demoted) instead.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def calls(ctx: click.Context, conversation_id: str | None, limit: int, events: bool, as_json: bool) -> None:
    """The audit log: every tool call with slot, arguments, result size, duration and status."""
    hub = _hub(open_runtime(ctx))
    rows = hub.skills.events() if events else hub.audit.list(conversation_id=conversation_id, limit=limit)
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        if events:
            click.echo(f"{r['created_at'][:19]}  {r['event']:<9} {r['name']}  {r['detail']}")
        else:
            click.echo(f"{r['created_at'][:19]}  {r['slot']:<4} {r['tool']:<18} {r['status']:<13} {r['result_chars']:>7} chars "
                       f"{r['duration_ms']:>9.1f} ms  {r['arguments'][:80]}")


@tools.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def sandbox(as_json: bool) -> None:
    """Which protections confine the Python sandbox on this machine."""
    from mol_local.harness import protections

    found = protections()
    if as_json:
        emit_json(found)
        return
    for area, how in found.items():
        click.echo(f"{area:<9} {how or 'NOT PROTECTED at kernel level'}")
