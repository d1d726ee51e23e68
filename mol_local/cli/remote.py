"""`mol remote login`: keep a remote engine's API key in the OS keyring (never in HCP, SQLite or logs)."""

from __future__ import annotations

import sys

import click

from mol_local.cli import cli
from mol_local.keys import REMOTE_KEY_ENV, backend_name, keyring_available, remote_key_name, set_secret


@cli.group()
def remote() -> None:
    """Remote engine credentials."""


@remote.command()
@click.option("--profile", default=None, help="Profile (HCP name) the key is for; default: the current HCP's name.")
@click.option("--stdin", "from_stdin", is_flag=True, help="Read the key from stdin instead of prompting.")
@click.pass_context
def login(ctx: click.Context, profile: str | None, from_stdin: bool) -> None:
    """Store the API key for PROFILE's remote in the OS keyring."""
    if profile is None:
        from mol_local.runtime import load_default_hcp

        path = (ctx.find_root().obj or {}).get("hcp")
        from pathlib import Path

        profile = load_default_hcp(Path(path) if path else None).name
    if not keyring_available():
        click.echo(
            f"No OS keyring backend is available ({backend_name()}); nothing was stored. "
            f"Set {REMOTE_KEY_ENV} in the environment of each session instead — it is read, never saved.",
            err=True,
        )
        ctx.exit(1)
    key = sys.stdin.readline().strip() if from_stdin else click.prompt("API key", hide_input=True).strip()
    if not key:
        raise click.UsageError("The key is empty — paste the API key your provider gave you")
    set_secret(remote_key_name(profile), key, env_hint=REMOTE_KEY_ENV)
    click.echo(f"Stored the API key for profile {profile!r} in the OS keyring.")
