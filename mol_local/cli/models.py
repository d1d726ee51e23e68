"""`mol models`: the GGUFs on this machine (list, scan, add, info, use, remove) and `pull`.

The catalog is `$MOL_HOME/models.json` (mol_local/catalog/store.py); `use` writes one new
HCP version. Nothing here copies, moves or deletes a model file.
"""

from __future__ import annotations

from pathlib import Path

import click

from mol_local.cli import cli
from mol_local.cli.common import emit_json


def _catalog():
    from mol_local.catalog.service import catalog

    return catalog()


def _hcp(ctx: click.Context):
    from mol_local.runtime import load_default_hcp

    path = (ctx.obj or {}).get("hcp")
    return load_default_hcp(Path(path) if path else None)


def _estimates(facts):
    from mol_local.catalog.fit import candidates

    return candidates(facts)


@cli.group("models")
def models_group() -> None:
    """Your GGUF models: list, scan, add, info, use, remove, pull."""


@models_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """Every GGUF we know of (* = in use): architecture, size, quantisation, context, template, fits in RAM."""
    from dataclasses import asdict

    from mol_local.catalog.facts import human_bytes, human_count
    from mol_local.catalog.service import rows as model_rows

    available, listed = model_rows(_hcp(ctx))
    rows = [asdict(r) for r in listed]
    if as_json:
        emit_json({"available_bytes": available, "models": rows})
        return
    click.echo(f"{'':1} {'name':<28} {'arch':<9} {'params':>7} {'quant':<7} {'size':>9} {'ctx':>7} {'tmpl':<4} fits in {human_bytes(available)} free")
    for r in rows:
        mark = "*" if r["in_use"] else ("!" if r["state"] == "missing" else " ")
        fits = "FILE MISSING" if r["state"] == "missing" else r["fits"]
        click.echo(f"{mark:1} {r['name']:<28} {r['architecture']:<9} {human_count(r['parameters']):>7} {r['quant']:<7} "
                   f"{human_bytes(r['file_size']):>9} {r['context_length'] or '?':>7} {'yes' if r['template'] else 'NO':<4} {fits}")
    if len(rows) == 1:
        click.echo("Only the embedded model so far — `mol models scan` finds Ollama, LM Studio and Hugging Face models; `mol models add PATH` adds one file.")


@models_group.command()
@click.argument("folder", required=False, type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True)
def scan(folder: str | None, as_json: bool) -> None:
    """Find GGUFs in Ollama's store, LM Studio's folder, the Hugging Face cache (or only in FOLDER); record, never copy."""
    from mol_local.catalog.sources import scan_known, scan_path

    found = scan_path(Path(folder)) if folder else scan_known()
    result = _catalog().add_found(found)
    if as_json:
        emit_json({"searched": result.searched, "added": [e.name for e in result.added], "known": [e.name for e in result.known],
                   "skipped": result.skipped, "problems": result.problems})
        return
    for where in result.searched:
        click.echo(f"searched {where}")
    for entry in result.added:
        click.echo(f"added {entry.name}  {entry.path}")
    for line in result.skipped:
        click.echo(f"skipped {line}")
    for problem in result.problems:
        click.echo(f"problem: {problem}", err=True)
    if not result.searched:
        click.echo("No Ollama, LM Studio or Hugging Face model store here — `mol models scan FOLDER` searches a folder.")
    click.echo(f"{len(result.added)} new, {len(result.known)} already known, {len(result.problems)} problem(s) — `mol models list` shows them")


@models_group.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--name", default=None, help="Name to use instead of the file's stem.")
@click.option("--json", "as_json", is_flag=True)
def add(path: str, name: str | None, as_json: bool) -> None:
    """Record one GGUF file (its header is read and llama.cpp is asked whether it can load it)."""
    from mol_local.catalog.choose import probe_llama, template_note
    from mol_local.catalog.facts import read_facts

    probe_llama(read_facts(Path(path)))
    entry = _catalog().add(Path(path), name=name)
    note = template_note(entry.facts)
    if as_json:
        emit_json({"name": entry.name, "facts": entry.facts.to_dict(), "warnings": [note] if note else []})
        return
    click.echo(f"added {entry.name}: {entry.facts.architecture}, {entry.facts.parameters_label} parameters, {entry.facts.quant}")
    if note:
        click.echo(f"warning: {note}", err=True)


@models_group.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def info(ctx: click.Context, name: str, as_json: bool) -> None:
    """Everything known about one model: header facts, RAM at each setting, adapters for it."""
    from mol_local.adapters.registry import Registry
    from mol_local.catalog.choose import adapters_note, routing_for, template_note
    from mol_local.catalog.facts import human_bytes
    from mol_local.catalog.fit import available_ram, fits
    from mol_local.catalog.service import in_use
    from mol_local.paths import mol_home

    entry = _catalog().get(name)
    f = entry.facts
    available = available_ram()
    registry = Registry(mol_home() / "adapters")
    estimates = _estimates(f)
    notes = [n for n in (template_note(f), adapters_note(f.fingerprint, registry)) if n]
    if entry.state() == "missing":
        notes.insert(0, f"the file is gone from {entry.path} — put it back, or `mol models remove {entry.name}`")
    if as_json:
        emit_json({"name": entry.name, "path": entry.path, "state": entry.state(), "in_use": entry.path == in_use(_hcp(ctx)),
                   "facts": f.to_dict(), "available_bytes": available, "routing": routing_for(f.fingerprint, registry),
                   "estimates": [{**e.to_dict(), "fits": fits(e, available)} for e in estimates], "notes": notes})
        return
    lines = [("name", entry.name), ("path", entry.path), ("source", entry.source), ("title", f.title),
             ("architecture", f"{f.architecture} ({f.n_layer} layers, width {f.n_embd}, vocabulary {f.n_vocab})"),
             ("parameters", f.parameters_label), ("quantisation", f.quant), ("file size", human_bytes(f.file_size)),
             ("context length", str(f.context_length or "?")),
             ("chat template", f"yes ({f.chat_format})" if f.has_template else "NO"), ("tool calls", f.tool_format or "none in the template"),
             ("licence", f.license or "not stated"), ("fingerprint", f.fingerprint), ("routing on use", routing_for(f.fingerprint, registry))]
    for label, value in lines:
        click.echo(f"{label:<15} {value}")
    click.echo(f"RAM ({human_bytes(available)} free now):")
    for e in estimates:
        click.echo(f"  {'fits' if fits(e, available) else 'NO  '}  {e.words()}")
    for note in notes:
        click.echo(f"note: {note}")


@models_group.command()
@click.argument("name")
@click.option("--n-ctx", type=click.IntRange(256, 1_048_576), default=None, help="Context per slot (default: the largest that fits).")
@click.option("--kv-layout", type=click.Choice(["split", "unified"]), default=None)
@click.option("--reason", default=None, help="Stored with the new HCP version.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def use(ctx: click.Context, name: str, n_ctx: int | None, kv_layout: str | None, reason: str | None, as_json: bool) -> None:
    """Make NAME (or a GGUF path) the base model: checks first, then one new HCP version with n_ctx, kv_layout, routing."""
    from dataclasses import asdict

    from mol_local.catalog.service import use_model
    from mol_local.cli.hcp import _store, _versioned

    _versioned(ctx, _store())
    version, plan = use_model(name, _hcp(ctx), n_ctx=n_ctx, kv_layout=kv_layout, reason=reason)
    if as_json:
        emit_json({"version": asdict(version), "changes": plan.changes, "estimate": plan.estimate.to_dict(), "notes": plan.notes})
        return
    click.echo(f"version {version.n}: base model {plan.entry.name} — n_ctx {plan.estimate.n_ctx}, kv_layout {plan.estimate.kv_layout}, routing {plan.routing_mode}")
    click.echo(f"memory: about {plan.estimate.words()}")
    for note in plan.notes:
        click.echo(f"note: {note}", err=True)


@models_group.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
def remove(name: str, as_json: bool) -> None:
    """Forget NAME; its file stays where it is."""
    entry = _catalog().remove(name)
    if as_json:
        emit_json({"removed": entry.name, "path": entry.path})
    else:
        click.echo(f"forgot {entry.name} (the file {entry.path} is untouched)")


@models_group.command()
@click.argument("ref", required=False)
@click.option("--list", "show_list", is_flag=True, help="Known-good instruct GGUFs and the RAM each needs.")
@click.option("--yes", is_flag=True, help="Do not ask before downloading.")
@click.option("--name", default=None, help="Catalog name (default: the file's stem).")
def pull(ref: str | None, show_list: bool, yes: bool, name: str | None) -> None:
    """Download REPO[:FILE] (or a --list name) from the Hugging Face Hub: the only command that uses a network."""
    from mol_local.catalog.choose import template_note
    from mol_local.catalog.errors import PullError
    from mol_local.catalog.pull import CURATED, check_space, download, models_cache_dir, resolve

    if show_list or not ref:
        click.echo(f"{'name':<24} {'download':>9} {'RAM':>7}  licence     repo:file")
        for c in CURATED:
            click.echo(f"{c.name:<24} {c.size_mb:>6} MB {c.ram_gb:>5.1f} GB  {c.licence:<10}  {c.repo}:{c.file}")
        click.echo("RAM at n_ctx 4096 with the runtime around it. `mol models pull NAME` fetches one (it asks first).")
        if not ref and not show_list:
            raise PullError("name what to pull — `mol models pull NAME` with a name above, or ORG/REPO[:FILE.gguf]")
        return
    target = resolve(ref)
    cache = models_cache_dir()
    click.echo(f"will fetch {target.repo}/{target.file} ({target.size / (1 << 20):.1f} MiB, revision {target.commit[:12]}) "
               f"from {target.endpoint} into {cache}")
    check_space(target, cache)
    if not yes and not click.confirm("Download it now?", default=True):
        click.echo("nothing downloaded")
        return
    path = download(target, cache)
    entry = _catalog().add(path, source="pull", name=name)
    click.echo(f"added {entry.name} ({entry.facts.architecture}, {entry.facts.parameters_label}, {entry.facts.quant}) — "
               f"`mol models use {entry.name}` makes it the base")
    if note := template_note(entry.facts):
        click.echo(f"warning: {note}", err=True)
