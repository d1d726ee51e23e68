"""`mol bench ...`: benchmarks that print JSON and compare against a baseline in the same run."""

from __future__ import annotations

import json
from pathlib import Path

import click

from mol_local.cli import cli


@cli.group()
def bench() -> None:
    """Benchmarks (speed is measured here, never asserted in tests)."""


def write_result(name: str, result: dict, out: str | None) -> None:
    """Print the JSON line and, if asked, record it under bench/results/."""
    line = json.dumps(result, sort_keys=True)
    click.echo(line)
    if out:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")


@bench.command("runtime")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--turns", default=20, show_default=True, help="Scripted turns (visits all four slots).")
@click.option("--answer-tokens", default=96, show_default=True, help="Fixed answer budget per turn.")
@click.option("--summary-tokens", default=48, show_default=True, help="Summary budget per task.")
@click.option("--kv-layout", type=click.Choice(["split", "unified"]), default="split", show_default=True,
              help="One KV stream per sequence (the default runtime.kv_layout), or one shared buffer.")
@click.option("--out", type=click.Path(dir_okay=False), help="Also write the result to this file.")
def bench_runtime(as_json: bool, turns: int, answer_tokens: int, summary_tokens: int, kv_layout: str, out: str | None) -> None:
    """direct llama-cpp-python vs our MoL loop (with and without per-slot KV reuse)."""
    from mol_local.bench.runtime import run_runtime_bench

    result = run_runtime_bench(turns=turns, answer_tokens=answer_tokens, summary_tokens=summary_tokens, kv_layout=kv_layout)
    write_result("runtime", result, out)
