"""Helpers shared by subcommands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from mol_local.runtime import Runtime


def open_runtime(ctx: click.Context) -> Runtime:
    path = (ctx.obj or {}).get("hcp")
    return Runtime.open(Path(path) if path else None)


def warn_adapter_problems(runtime: Runtime) -> None:
    """One stderr line per shipped adapter that could not be seeded, as the app and `mol doctor` say them: a
    damaged route adapter otherwise left `mol route` and `mol chat` routing zero-shot without a word."""
    for problem in runtime.adapter_problems:
        click.echo(f"warning: {problem}", err=True)


def emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def rounded(timings: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in timings.items()}
