"""`mol bench memory`: registers on the `bench` group."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result

DEFAULT_OUT = "bench/results/memory.json"
SESSIONS_OUT = "bench/results/memory_sessions.json"


@bench.command("memory")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--n", "n", default=10_000, show_default=True, type=click.IntRange(100), help="Memories to insert.")
@click.option("--sessions", is_flag=True, help="Instead: long dated multi-session chats, recall@5 per question kind.")
@click.option("--out", type=click.Path(dir_okay=False), help=f"Also write the result here ('' to skip; default {DEFAULT_OUT} or {SESSIONS_OUT}).")
def bench_memory(as_json: bool, n: int, sessions: bool, out: str | None) -> None:
    """Hybrid recall vs. dense (MiniLM + Chroma) vs. SQLite FTS5 keywords: add rate, search p50/p95, recall@5."""
    from mol_local.paths import offline_env

    offline_env()
    if sessions:
        from mol_local.bench.sessions import run_sessions_bench

        write_result("memory_sessions", run_sessions_bench(), SESSIONS_OUT if out is None else out or None)
        return
    from mol_local.bench.memory import run_memory_bench

    write_result("memory", run_memory_bench(n), DEFAULT_OUT if out is None else out or None)
