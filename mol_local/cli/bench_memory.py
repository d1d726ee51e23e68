"""`mol bench memory`: registers on the `bench` group."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result

DEFAULT_OUT = "bench/results/memory.json"


@bench.command("memory")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--n", "n", default=10_000, show_default=True, type=click.IntRange(100), help="Memories to insert.")
@click.option("--out", type=click.Path(dir_okay=False), default=DEFAULT_OUT, show_default=True, help="Also write the result here ('' to skip).")
def bench_memory(as_json: bool, n: int, out: str) -> None:
    """Vector search (MiniLM + Chroma) vs. SQLite FTS5 keywords: add rate, search p50/p95, recall@5."""
    from memory.bench import run_memory_bench
    from mol_local.paths import offline_env

    offline_env()
    write_result("memory", run_memory_bench(n), out or None)
