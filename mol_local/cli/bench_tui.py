"""`mol bench tui`: cold start of the TUI to an interactive screen vs `import textual` (the floor)."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result


@bench.command("tui")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--samples", default=5, show_default=True, help="Fresh interpreters per variant (median reported).")
@click.option("--out", type=click.Path(dir_okay=False), default="bench/results/tui.json", show_default=True, help="Also write the result here.")
def bench_tui(as_json: bool, samples: int, out: str | None) -> None:
    """Cold start: `import textual` floor, the app alone, and the app behind the `mol` entry point."""
    from mol_local.bench.tui import run_tui_bench

    if samples < 1:
        raise click.BadParameter("must be at least 1", param_hint="--samples")
    write_result("tui", run_tui_bench(samples=samples), out)
