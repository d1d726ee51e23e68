"""`mol consent on|off|status [--conversation ID]`: training consent, opt-in per conversation."""

from __future__ import annotations

import click

from memory.consent import consent_overview, consent_state, set_consent
from memory.errors import ConsentError
from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime


@cli.command()
@click.argument("action", type=click.Choice(["on", "off", "status"]))
@click.option("--conversation", "-c", "conversation_id", help="The conversation (list them with `mol chat --list`).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def consent(ctx: click.Context, action: str, conversation_id: str | None, as_json: bool) -> None:
    """Allow (on) or revoke (off) training on a conversation, or show the state (status)."""
    rt = open_runtime(ctx)
    default = rt.hcp.consent.default
    if action == "status":
        states = [consent_state(rt.db, conversation_id, default_on=default)] if conversation_id else consent_overview(rt.db, default_on=default)
        if as_json:
            emit_json({"default": "on" if default else "off", "conversations": [s.as_dict() for s in states]})
            return
        click.echo(f"default for new conversations: {'on' if default else 'off'} (HCP consent.default)")
        for s in states:
            click.echo(f"{s.conversation_id}  {'on ' if s.on else 'off'}  {s.since or '(default)'}")
        return
    if not conversation_id:
        raise ConsentError(
            f"`mol consent {action}` needs --conversation ID (see `mol chat --list`); the global default is consent.default in your HCP"
        )
    state = set_consent(rt.db, conversation_id, action == "on")
    if as_json:
        emit_json(state.as_dict())
    else:
        click.echo(f"Training consent {action} for {conversation_id} since {state.since}")
