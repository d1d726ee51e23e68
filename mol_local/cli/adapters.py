"""`mol adapters`: convert PEFT adapters, manage the registry, move bundles."""

from __future__ import annotations

from pathlib import Path

import click

from mol_local.cli import cli
from mol_local.cli.common import emit_json


def _base(ctx: click.Context, base: str | None) -> Path:
    """The base GGUF: --base if given, else the configured HCP's base model."""
    from mol_local.models import resolve_model
    from mol_local.runtime import load_default_hcp

    if base:
        return resolve_model(base)
    path = (ctx.obj or {}).get("hcp")
    hcp = load_default_hcp(Path(path) if path else None)
    return resolve_model(hcp.base_model, relative_to=hcp.base_dir)


def _registry():
    from mol_local.adapters.registry import Registry

    return Registry()


@cli.group()
def adapters() -> None:
    """LoRA adapters: convert, list, activate, rollback, verify, export, import."""


_base_option = click.option("--base", "base", help="Base GGUF path or builtin: reference (default: the HCP's base).")
_json_option = click.option("--json", "as_json", is_flag=True, help="JSON output.")


@adapters.command()
@click.argument("peft_dir", type=click.Path(path_type=Path))
@click.option("--base", "base", required=True, help="The base GGUF the adapter was trained on (path or builtin:).")
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path), help="Output .gguf")
@click.option("--type", "dtype", type=click.Choice(["f32", "f16"]), default="f32", show_default=True)
@_json_option
@click.pass_context
def convert(ctx: click.Context, peft_dir: Path, base: str, out: Path, dtype: str, as_json: bool) -> None:
    """Convert a PEFT LoRA directory (safetensors) to a llama.cpp LoRA GGUF."""
    from mol_local.adapters.convert import convert_peft_to_gguf

    report = convert_peft_to_gguf(peft_dir, _base(ctx, base), out, dtype=dtype)
    row = {
        "out": str(report.out),
        "architecture": report.architecture,
        "rank": report.rank,
        "alpha": report.alpha,
        "target_modules": list(report.target_modules),
        "tensors": report.tensors,
        "permuted": report.permuted,
    }
    if as_json:
        emit_json(row)
    else:
        click.echo(f"wrote {report.out} ({report.architecture}, rank {report.rank}, {report.tensors} tensors, {report.permuted} q/k permuted)")


@adapters.command(name="list")
@_base_option
@_json_option
@click.pass_context
def list_(ctx: click.Context, base: str | None, as_json: bool) -> None:
    """Every revision per slot/layer, which one is active, and the storage figure."""
    from mol_local.adapters.builtin import seed_shipped
    from mol_local.adapters.manifest import LAYERS
    from mol_local.adapters.registry import SLOTS
    from mol_local.adapters.manifest import base_fingerprint

    base_path = _base(ctx, base)
    reg = _registry()
    for problem in seed_shipped(reg, base_path):
        click.echo(f"Warning: {problem}", err=True)
    fingerprint = base_fingerprint(base_path)
    rows = []
    for slot in SLOTS:
        for layer in LAYERS:
            active = reg.pointer(slot, layer)["revision"]
            for rev in reg.revisions(slot, layer):
                m = rev.manifest
                rows.append({
                    "slot": slot, "layer": layer, "revision": rev.revision, "active": rev.revision == active,
                    "fits_base": m["base_fingerprint"] == fingerprint, "architecture": m["architecture"],
                    "rank": m["rank"], "alpha": m.get("alpha"), "target_modules": m.get("target_modules", []),
                    "hops": m.get("hops"), "parent_revision": m.get("parent_revision"),
                    "created_at": m.get("created_at"), "bytes": rev.gguf.stat().st_size if rev.gguf.is_file() else 0,
                    "name": m.get("name"),
                })
    storage = reg.storage(base_path)
    if as_json:
        emit_json({"revisions": rows, "storage": storage})
        return
    if not rows:
        click.echo("no adapters registered")
    for r in rows:
        mark = "*" if r["active"] else " "
        fit = "" if r["fits_base"] else "  (other base)"
        click.echo(f"{mark} {r['slot']}/{r['layer']}/{r['revision']}  rank {r['rank']}  {r['bytes']:,} B  {r.get('name') or ''}{fit}")
    click.echo(
        f"storage: {storage['total_bytes']:,} B (base + adapters) vs {storage['merged_bytes']:,} B as merged models "
        f"({storage['ratio_vs_merged']:.1%})"
    )


@adapters.command()
@click.argument("target")
@click.argument("revision")
@_json_option
def activate(target: str, revision: str, as_json: bool) -> None:
    """Make REVISION the active adapter of TARGET (L0 or L0/personal)."""
    from mol_local.adapters.registry import parse_target

    slot, layer = parse_target(target)
    rev = _registry().activate(slot, layer, revision)
    if as_json:
        emit_json({"slot": slot, "layer": layer, "active": rev.revision})
    else:
        click.echo(f"{slot}/{layer}: {rev.revision} is active")


@adapters.command()
@click.argument("target")
@_json_option
def rollback(target: str, as_json: bool) -> None:
    """Point TARGET back at the revision that was active before."""
    from mol_local.adapters.registry import parse_target

    slot, layer = parse_target(target)
    rev = _registry().rollback(slot, layer)
    active = rev.revision if rev else None
    if as_json:
        emit_json({"slot": slot, "layer": layer, "active": active})
    else:
        click.echo(f"{slot}/{layer}: {active or 'no adapter'} is active")


@adapters.command()
@click.argument("target", required=False)
@_base_option
@_json_option
@click.pass_context
def verify(ctx: click.Context, target: str | None, base: str | None, as_json: bool) -> None:
    """Re-hash every file of every revision (or TARGET's) and check it fits the base."""
    from mol_local.adapters.errors import ChecksumMismatch
    from mol_local.adapters.registry import parse_target

    slot = layer = None
    if target:
        slot, layer = parse_target(target, default_layer=None) if "/" in target else (parse_target(target)[0], None)
    rows = _registry().verify(slot, layer, base=_base(ctx, base))
    if as_json:
        emit_json({"revisions": rows, "ok": all(r["ok"] for r in rows)})
    else:
        for r in rows:
            click.echo(f"{'ok ' if r['ok'] else 'BAD'} {r['slot']}/{r['layer']}/{r['revision']}" + (f"  {r['problem']}" if r["problem"] else ""))
    bad = [r for r in rows if not r["ok"]]
    if bad:
        raise ChecksumMismatch(f"{len(bad)} revision(s) failed verification — roll back or re-import them")


@adapters.command(name="export")
@click.argument("target")
@click.option("--revision", help="Revision to export (default: the active one).")
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path))
@_json_option
def export_(target: str, revision: str | None, out: Path, as_json: bool) -> None:
    """Write TARGET's revision as one .moladapter bundle."""
    from mol_local.adapters.bundle import export_bundle

    path = export_bundle(_registry(), target, out, revision=revision)
    if as_json:
        emit_json({"out": str(path), "bytes": path.stat().st_size})
    else:
        click.echo(f"wrote {path}")


@adapters.command(name="import")
@click.argument("bundle", type=click.Path(path_type=Path))
@click.option("--activate", "do_activate", is_flag=True, help="Also make it active (never done silently).")
@_base_option
@_json_option
@click.pass_context
def import_(ctx: click.Context, bundle: Path, do_activate: bool, base: str | None, as_json: bool) -> None:
    """Validate a .moladapter bundle fully, then register it as a new revision."""
    from mol_local.adapters.bundle import import_bundle

    rev = import_bundle(_registry(), bundle, base=_base(ctx, base), activate=do_activate)
    if as_json:
        emit_json({"slot": rev.slot, "layer": rev.layer, "revision": rev.revision, "active": do_activate})
    else:
        hint = "" if do_activate else f" — activate it with `mol adapters activate {rev.slot}/{rev.layer} {rev.revision}`"
        click.echo(f"registered {rev.slot}/{rev.layer}/{rev.revision}{hint}")
