"""`mol bench learning`: registers on the `bench` group; the logic is in mol_local/bench/learning.py."""

from __future__ import annotations

import click

from mol_local.cli.bench import bench, write_result

DEFAULT_OUT = "bench/results/learning.json"


@bench.command("learning")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--conversations", "n", default=200, show_default=True, type=click.IntRange(8), help="Simulated conversations in all, split evenly over the nights.")
@click.option("--cycles", default=3, show_default=True, type=click.IntRange(1, 10), help="Nightly cycles.")
@click.option("--epochs", default=2, show_default=True, type=click.IntRange(1, 20), help="Epochs per night.")
@click.option("--max-len", default=512, show_default=True, type=click.IntRange(64, 4096), help="Longest example in tokens (the view's tail is kept).")
@click.option("--lr", default=2e-3, show_default=True, type=click.FloatRange(1e-6, 1.0), help="Peak learning rate.")
@click.option("--anchor-ratio", default=0.5, show_default=True, type=click.FloatRange(0.0, 4.0),
              help="Anchors (the base's own answers to general prompts) per new example; 0 turns them off.")
@click.option("--replay-ratio", default=1.0, show_default=True, type=click.FloatRange(0.0, 4.0),
              help="Older eligible examples replayed per new example (limits forgetting).")
@click.option("--regression-limit", type=click.IntRange(1), help="Score only the first N regression prompts (default: all 40).")
@click.option("--out", type=click.Path(dir_okay=False), default=DEFAULT_OUT, show_default=True, help="Also write the result here ('' to skip).")
def bench_learning(as_json: bool, n: int, cycles: int, epochs: int, max_len: int, lr: float, anchor_ratio: float, replay_ratio: float, regression_limit: int | None, out: str) -> None:
    """Does the nightly layer learn a simulated user without forgetting? Plus our tokens/s vs a plain HF Trainer."""
    from mol_local.bench.learning import run_learning_bench
    from trainer.train import TrainConfig

    result = run_learning_bench(
        conversations=n,
        cycles=cycles,
        config=TrainConfig(epochs=epochs, max_len=max_len, lr=lr),
        regression_limit=regression_limit,
        anchor_ratio=anchor_ratio,
        replay_ratio=replay_ratio,
        progress=lambda m: click.echo(m, err=True),
    )
    write_result("learning", result, out or None)
