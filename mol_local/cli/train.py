"""`mol train --now [--slot Lk] [--dry-run] [--json]` and `mol train schedule install|remove|status`."""

from __future__ import annotations

import click

from hcp.schema import SLOT_LABELS
from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime


def _printer(as_json: bool):
    """Progress lines on stderr (stdout stays one JSON document with --json)."""

    def show(event: dict) -> None:
        stage = event.get("stage")
        if stage == "step":
            msg = f"[{event['slot']}] step {event['step']}/{event['steps']} loss {event['loss']:.3f} {event['tokens_per_s']:.0f} tok/s rss {event['rss_mb']:.0f} MiB"
        elif stage == "selected":
            msg = f"[{event['slot']}] selected {event['selected']} dropped {event['dropped']} scrubbed {event['scrubbed']}"
        elif stage == "finished":
            msg = f"[{event['slot']}] {event['status']}: {event['reason']}"
        elif stage == "lock":
            msg = f"recovered a stale lock from pid {event['stale_recovered'].get('pid')}"
        else:
            msg = f"[{event.get('slot', '-')}] {stage}"
        click.echo(msg, err=True)

    return show


@cli.group(invoke_without_command=True)
@click.option("--now", is_flag=True, help="Run the nightly consolidation now.")
@click.option("--slot", "slots", multiple=True, type=click.Choice(SLOT_LABELS), help="Only this slot (repeatable).")
@click.option("--dry-run", is_flag=True, help="Select and filter only; train nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON report.")
@click.pass_context
def train(ctx: click.Context, now: bool, slots: tuple[str, ...], dry_run: bool, as_json: bool) -> None:
    """Nightly consolidation: learn a personal LoRA layer from consented conversations."""
    if ctx.invoked_subcommand is not None:
        return
    if not now:
        click.echo(ctx.get_help())
        return
    from trainer.nightly import Options, run_nightly

    rt = open_runtime(ctx)
    report = run_nightly(rt, Options(slots=slots, dry_run=dry_run), on_event=_printer(as_json))
    if as_json:
        emit_json(report)
        return
    click.echo(report["message"])
    for row in report["slots"]:
        click.echo(f"{row['slot']}: {row['status']} — {row.get('reason', '')}")


@train.command("schedule")
@click.argument("action", type=click.Choice(["install", "remove", "status"]))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def schedule(ctx: click.Context, action: str, as_json: bool) -> None:
    """Install, remove or show the OS timer that runs `mol train --now` at HCP trainer.schedule."""
    from trainer import schedule as sched

    if action == "install":
        out = sched.install(open_runtime(ctx).hcp.trainer.schedule)
    elif action == "remove":
        out = sched.remove()
    else:
        out = sched.status()
    if as_json:
        emit_json(out)
    else:
        click.echo(" ".join(f"{k}={v}" for k, v in out.items()))
