"""`mol bench models`: RAM estimate vs measured RSS per base and n_ctx, scan of 20 GGUFs, one turn per base."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result


@bench.command("models")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--n-ctx", "n_ctxs", multiple=True, type=int, default=(1024, 4096), show_default=True, help="Context sizes to measure.")
@click.option("--no-turns", is_flag=True, help="Skip the one-turn-per-base comparison.")
@click.option("--out", type=click.Path(dir_okay=False), default="bench/results/models.json", show_default=True, help="Also write the result here.")
def bench_models(as_json: bool, n_ctxs: tuple[int, ...], no_turns: bool, out: str | None) -> None:
    """SmolLM2 and (when installed) gemma3 270M: RAM estimate vs RSS, scan speed, a one-line question."""
    from mol_local.bench.models import run_models_bench

    write_result("models", run_models_bench(n_ctxs=tuple(n_ctxs), turns=not no_turns), out)
