"""`mol route`: which slot would take this request (no answer is generated)."""

from __future__ import annotations

from pathlib import Path

import click

from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime, warn_adapter_problems
from mol_local.errors import MolError
from mol_local.inputfile import read_input_file
from mol_local.textclean import loads_limited


class BadRouteFile(MolError):
    """A batch file line is not JSON with a `text` field."""


@cli.command()
@click.argument("text", required=False)
@click.option("--file", "file_", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="JSONL with a `text` per line.")
@click.option("--json", "as_json", is_flag=True, help="JSON output (one object per line with --file).")
@click.pass_context
def route(ctx: click.Context, text: str | None, file_: Path | None, as_json: bool) -> None:
    """Route TEXT, or every line of --file, with the model loaded once."""
    if (text is None) == (file_ is None):
        raise click.UsageError("give either TEXT or --file F.jsonl")
    rows: list[dict]
    if file_ is not None:
        rows = []
        try:
            lines = read_input_file(file_, BadRouteFile, fix="pass a JSONL file").decode("utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise BadRouteFile(f"{file_} is not UTF-8 text (byte {exc.start}) — save it as UTF-8") from exc
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = loads_limited(line)
            except ValueError as exc:
                raise BadRouteFile(f"{file_}:{n} is not JSON ({exc}) — one object per line") from exc
            if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                raise BadRouteFile(f"{file_}:{n} has no string `text` field — add one")
            rows.append(row)
    else:
        rows = [{"text": text}]
    runtime = open_runtime(ctx)
    runtime.warm_router()  # loading the embeddings router's model is not part of any request's latency
    router = runtime.router
    warn_adapter_problems(runtime)
    for row in rows:
        decision = router.route(row["text"])
        out = {**row, "slot": decision.slot, "latency_ms": round(decision.latency_ms, 2), "decided_by": decision.mode}
        if decision.fallback:
            out["fallback"] = True
        if as_json:
            emit_json(out)
        else:
            click.echo(f"{decision.slot}\t{decision.latency_ms:6.1f} ms\t{row['text']}")
