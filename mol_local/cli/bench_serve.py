"""`mol bench serve`: our HTTP serving overhead vs a bare llama-cpp-python completion loop, same run."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result


@bench.command("serve")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--clients", default="1,4", show_default=True, help="Comma-separated concurrent client counts.")
@click.option("--requests", "n_requests", default=16, show_default=True, type=click.IntRange(1, 10_000), help="Requests per client count.")
@click.option("--max-tokens", default=32, show_default=True, type=click.IntRange(1, 4096), help="Completion tokens per request (EOS ignored).")
@click.option("--out", type=click.Path(dir_okay=False), default="bench/results/serve.json", show_default=True, help="Also write the result here.")
def bench_serve(as_json: bool, clients: str, n_requests: int, max_tokens: int, out: str | None) -> None:
    """N concurrent clients on loopback vs bare llama-cpp-python; requests/s, p50/p95 latency, TTFT, overhead ratio."""
    from mol_local.bench.serve import run_serve_bench

    try:
        counts = [int(c) for c in clients.split(",") if c.strip()]
    except ValueError:
        raise click.BadParameter("use comma-separated numbers, e.g. 1,4", param_hint="--clients") from None
    if not counts or any(not 1 <= c <= 64 for c in counts):
        raise click.BadParameter("each client count must be between 1 and 64", param_hint="--clients")
    write_result("serve", run_serve_bench(clients=counts, requests=n_requests, max_tokens=max_tokens), out)
