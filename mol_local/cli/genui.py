"""`mol genui`: list stored views, export one to a static HTML file, validate a document file."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime
from mol_local.genui.errors import GenUIError


@cli.group()
def genui() -> None:
    """Generative-UI views (L3 answers)."""


@genui.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def genui_list(ctx: click.Context, as_json: bool) -> None:
    """Stored views, newest first."""
    from mol_local.genui.store import GenUIStore

    rt = open_runtime(ctx)
    try:
        rows = GenUIStore(rt.db).list()
    finally:
        rt.close()
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        click.echo(f"{r['id']}  {r['created_at']}  {r['title']}")


@genui.command("export")
@click.argument("view_id")
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False), help="HTML file to write.")
@click.pass_context
def genui_export(ctx: click.Context, view_id: str, output: str) -> None:
    """Write VIEW_ID, with its saved state and bound data, as one self-contained HTML file."""
    from mol_local.genui.actions import ViewController
    from mol_local.genui.binding import DataPort
    from mol_local.genui.html import render_html
    from mol_local.genui.store import GenUIStore

    path = Path(output)
    if not path.parent.is_dir():
        raise GenUIError(f"folder {path.parent} does not exist — create it or pick another -o path")
    rt = open_runtime(ctx)
    try:
        page = render_html(ViewController(GenUIStore(rt.db), DataPort(rt.db), view_id).snapshot())
    finally:
        rt.close()
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise GenUIError(f"cannot write {path} ({exc.strerror}) — pick a writable -o path") from exc
    click.echo(f"wrote {path} ({len(page)} bytes)")


@genui.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
def genui_validate(file: str) -> None:
    """Check a UI document file against the catalog; prints every problem."""
    from mol_local.genui.document import parse_document

    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GenUIError(f"cannot read {file} ({exc}) — pass a UTF-8 JSON file") from exc
    doc = parse_document(text)
    click.echo(f"valid: {doc.title!r}, {len(doc.components)} components, {len(doc.actions)} actions")


@genui.command("schema")
@click.option("--generation", is_flag=True, help="The tighter schema the grammar is built from.")
def genui_schema(generation: bool) -> None:
    """Print the JSON Schema of a UI document."""
    from mol_local.genui.catalog import document_schema

    click.echo(json.dumps(document_schema(generation=generation), indent=2))
