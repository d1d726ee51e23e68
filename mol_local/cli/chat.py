"""`mol chat`: one turn from the command line."""

from __future__ import annotations

import sys

import click

from mol_local.cli import cli
from hcp.schema import SLOT_LABELS
from mol_local.cli.common import emit_json, open_runtime, rounded
from mol_local.textclean import clean_message
from mol_local.turn import TurnHooks


@cli.command()
@click.argument("text", required=False)
@click.option("--conversation", "-c", "conversation_id", help="Continue this conversation.")
@click.option("--list", "list_", is_flag=True, help="List conversations and exit.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of streaming text.")
@click.option("--slot", type=click.Choice(SLOT_LABELS), help="Answer on this slot with its own view; no routing.")
@click.pass_context
def chat(ctx: click.Context, text: str | None, conversation_id: str | None, list_: bool, as_json: bool, slot: str | None) -> None:
    """Send TEXT (or stdin) as one turn and print the answer."""
    runtime = open_runtime(ctx)
    if list_:
        rows = runtime.timeline.list_conversations()
        if as_json:
            emit_json(rows)
        else:
            for row in rows:
                click.echo(f"{row['id']}  {row['updated_at'][:19]}  {row['title']}")
        return
    if text is None:
        text = sys.stdin.read()
    text = clean_message(text)  # terminal escapes and control characters are stripped; nothing left is refused
    session = runtime.session(conversation_id)
    hooks = TurnHooks() if as_json else TurnHooks(on_token=lambda piece: click.echo(piece, nl=False))
    if not as_json:
        hooks.on_tool = lambda c: click.echo(f"\n[{c['name'] or 'tool call'} → {c['result'].splitlines()[0] if c['result'] else ''}]", err=True)
    hooks.on_fallback = lambda reason: click.echo(f"\n[remote unavailable, answering locally: {reason}]", err=True)
    if slot is not None and slot not in runtime.hcp.slots:
        raise click.UsageError(f"slot {slot} is not in this HCP — use one of {', '.join(runtime.hcp.slots)}")
    result = session.run_turn(text, hooks=hooks, slot=slot)
    if as_json:
        emit_json(
            {
                "conversation_id": result.conversation_id,
                "task_id": result.task_id,
                "slot": result.slot,
                "answer": result.answer,
                "route": None if result.route is None else {"raw": result.route.raw_output, "fallback": result.route.fallback},
                "timings": rounded(result.timings_ms),
                "engine": result.engine,
                "tool_calls": result.tool_calls,
                "document": result.document,
                "summary": result.summary,
            }
        )
    else:
        click.echo()
        click.echo(f"[{result.slot} · {result.engine} · conversation {result.conversation_id}]", err=True)
