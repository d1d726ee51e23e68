"""`mol bench genui`: registers on the `bench` group."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result

DEFAULT_OUT = "bench/results/genui.json"


@bench.command("genui")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N eval requests (default: all).")
@click.option("--max-tokens", default=384, show_default=True, type=click.IntRange(16, 2048), help="Token budget per document.")
@click.option("--threads", default=2, show_default=True, type=click.IntRange(1, 64), help="llama.cpp threads.")
@click.option("--placement", type=click.Choice(["head", "tail"]), default="head", show_default=True,
              help="Where the UI guide goes: L3's cached head (the runtime's way) or the user message (the way before).")
@click.option("--grammar-only", is_flag=True, help="Skip the no-grammar pass.")
@click.option("--out", type=click.Path(dir_okay=False), default=DEFAULT_OUT, show_default=True, help="Also write the result here ('' to skip).")
def bench_genui(as_json: bool, limit: int | None, max_tokens: int, threads: int, placement: str, grammar_only: bool, out: str) -> None:
    """UI documents on the embedded default: parse / semantic-valid / adherence / p50, grammar on vs. off."""
    from mol_local.bench.genui import run_genui_bench
    from mol_local.paths import offline_env

    offline_env()
    write_result("genui", run_genui_bench(limit=limit, max_tokens=max_tokens, threads=threads, placement=placement, grammar_only=grammar_only), out or None)
