"""`mol hcp`: show, validate, change and version the runtime contract.

Versioned commands (init, set, history, diff, rollback) act on
`$MOL_HOME/hcp.toml` and its history under `$MOL_HOME/hcp/`.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import click

from hcp.docs import render_markdown, schema_data
from hcp.errors import HCPError, HCPVersionError
from hcp.files import read_text
from hcp.loader import PROFILES_DIR, load_hcp, profile_path
from hcp.references import check_files, problems_of
from hcp.store import Version, VersionStore
from mol_local.cli import cli
from mol_local.cli.common import emit_json
from mol_local.paths import mol_home


def _store() -> VersionStore:
    return VersionStore(mol_home())


def _active_path(ctx: click.Context, store: VersionStore) -> Path:
    """The HCP the runtime would load: --hcp / MOL_HCP, else $MOL_HOME/hcp.toml, else local-default."""
    given = (ctx.obj or {}).get("hcp")
    if given:
        return Path(given)
    return store.active if store.active.is_file() else profile_path("local-default")


def _versioned(ctx: click.Context, store: VersionStore) -> None:
    """Refuse to edit $MOL_HOME/hcp.toml while the runtime is told to load another file."""
    given = (ctx.obj or {}).get("hcp")
    if given and Path(given).resolve() != store.active.resolve():
        raise HCPVersionError(
            f"--hcp/MOL_HCP points to {given}, but versioned edits apply to {store.active} — unset MOL_HCP (or drop --hcp) to use it"
        )


def _version_line(v: Version, head: int | None) -> str:
    mark = "*" if v.n == head else " "
    parent = "-" if v.parent is None else str(v.parent)
    return f"{mark}{v.n:4d}  {v.timestamp}  {v.author:<7}  parent {parent:>4}  {v.reason}"


@cli.group("hcp")
def hcp_group() -> None:
    """The HCP contract: show, validate, set, history, diff, rollback, schema, init."""


@hcp_group.command()
@click.option("--json", "as_json", is_flag=True, help="Effective values (defaults filled in) as JSON.")
@click.pass_context
def show(ctx: click.Context, as_json: bool) -> None:
    """Print the active HCP document (comments included)."""
    store = _store()
    path = _active_path(ctx, store)
    hcp = load_hcp(path)
    is_store = path == store.active
    head = store.head() if is_store else None
    if as_json:
        emit_json({
            "source": str(path),
            "version": head.n if head else None,
            "unrecorded_edits": store.unrecorded_edits() if is_store else False,
            "hcp": hcp.to_dict(),
        })
        return
    note = f"version {head.n}" if head else ("shipped profile; `mol hcp init` makes an editable copy" if path.parent == PROFILES_DIR else "not versioned")
    click.echo(f"# {path} ({note})")
    click.echo(read_text(path), nl=False)


@hcp_group.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: ok, name, problems.")
def validate(file: str, as_json: bool) -> None:
    """Check FILE (a path or a shipped profile name): schema, references and the files it names."""
    path = Path(file)
    if not path.is_file() and (PROFILES_DIR / f"{file}.toml").is_file():
        path = profile_path(file)
    try:
        hcp = load_hcp(path)
    except HCPError as exc:
        if not as_json:
            raise
        emit_json({"file": str(path), "ok": False, "problems": [{"key": None, "path": None, "message": str(exc)}]})
        raise SystemExit(1) from exc
    problems = check_files(hcp)
    if as_json:
        emit_json({"file": str(path), "ok": not problems, "name": hcp.name, "problems": [asdict(p) for p in problems]})
        if problems:
            raise SystemExit(1)
        return
    if problems:
        for problem in problems:
            click.echo(f"problem: {problem.message}", err=True)
        raise HCPError(f"{path}: {len(problems)} problem(s) above — fix each path or key it names, then run `mol hcp validate` again")
    click.echo(f"OK: {path} ({hcp.name}: {len(hcp.slots)} slots, backend {hcp.backend})")


@hcp_group.command("set", context_settings={"ignore_unknown_options": True})
@click.argument("key")
@click.argument("value")
@click.option("--reason", required=True, help="Why: stored with the new version.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def set_(ctx: click.Context, key: str, value: str, reason: str, as_json: bool) -> None:
    """Set KEY (dotted, e.g. runtime.threads) to VALUE as a new version."""
    store = _store()
    _versioned(ctx, store)
    version = store.set(key, value, reason=reason)
    todo = problems_of(store.load(), [key])
    if as_json:
        emit_json({"version": asdict(version), "key": key, "value": value, "problems": [asdict(p) for p in todo]})
    else:
        click.echo(f"version {version.n}: {key} = {value}  ({reason})")
        for problem in todo:
            click.echo(f"to do: {problem.message}")


@hcp_group.command()
@click.option("--json", "as_json", is_flag=True)
def history(as_json: bool) -> None:
    """List versions, newest first (* = active)."""
    store = _store()
    versions = store.lineage()
    head = versions[0].n if versions else None
    if as_json:
        emit_json({"head": head, "unrecorded_edits": store.unrecorded_edits(), "versions": [asdict(v) for v in versions]})
        return
    if not versions:
        click.echo("No versions yet — `mol hcp init` or `mol hcp set KEY VALUE --reason ...` starts the history.")
        return
    for v in versions:
        click.echo(_version_line(v, head))
    if store.unrecorded_edits():
        click.echo(f"note: {store.active} has edits not yet recorded; the next change records them first")


@hcp_group.command()
@click.argument("a", type=int)
@click.argument("b", type=int)
@click.option("--json", "as_json", is_flag=True, help="Changed keys plus the text diff.")
def diff(a: int, b: int, as_json: bool) -> None:
    """Show what changed from version A to version B."""
    store = _store()
    text = store.diff(a, b)
    if as_json:
        emit_json({"a": a, "b": b, "changes": store.changed_keys(a, b), "diff": text})
    else:
        click.echo(text or f"versions {a} and {b} are identical", nl=not text)


@hcp_group.command()
@click.argument("n", type=int)
@click.option("--reason", default="", help="Why (default: 'rollback to version N').")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def rollback(ctx: click.Context, n: int, reason: str, as_json: bool) -> None:
    """Make version N active again (recorded as a new version)."""
    store = _store()
    _versioned(ctx, store)
    version = store.rollback(n, reason=reason)
    if as_json:
        emit_json({"version": asdict(version)})
    else:
        click.echo(f"version {version.n}: rolled back to version {n}")


@hcp_group.command()
@click.option("--json", "as_json", is_flag=True)
def schema(as_json: bool) -> None:
    """Print the documented schema (Markdown, same as hcp/SCHEMA.md)."""
    if as_json:
        emit_json(schema_data())
    else:
        click.echo(render_markdown(), nl=False)


@hcp_group.command()
@click.option("--profile", default="local-default", show_default=True, help="Shipped profile to start from.")
@click.option("--force", is_flag=True, help="Replace an existing hcp.toml (it stays in history).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def init(ctx: click.Context, profile: str, force: bool, as_json: bool) -> None:
    """Copy a shipped profile to $MOL_HOME/hcp.toml as a new version."""
    store = _store()
    _versioned(ctx, store)
    version = store.init(profile, force=force)
    problems = check_files(store.load())
    if as_json:
        emit_json({"version": asdict(version), "path": str(store.active), "problems": [asdict(p) for p in problems]})
        return
    click.echo(f"version {version.n}: {store.active} from profile {profile}")
    for problem in problems:
        click.echo(f"to do: {problem.message}")
