"""`mol bench specialists`: registers on the `bench` group; the logic is in mol_local/bench/specialists.py."""

from __future__ import annotations

from pathlib import Path

import click

from mol_local.cli.bench import bench, write_result

DEFAULT_OUT = "bench/results/specialists.json"


@bench.command("specialists")
@click.option("--json", "as_json", is_flag=True, default=True, help="Print one JSON object (default).")
@click.option("--n", "n_per_slot", default=30, show_default=True, type=click.IntRange(1), help="Held-out cases per slot.")
@click.option("--turns", default=12, show_default=True, type=click.IntRange(4), help="Turns per scripted conversation (cycles L0-L3).")
@click.option("--conversations", default=2, show_default=True, type=click.IntRange(0), help="Scripted multi-turn conversations per arm.")
@click.option("--specialists", "spec_dirs", multiple=True, type=click.Path(file_okay=False, exists=True),
              help="A folder with smollm2-l0..l3 (one per training seed; default: the shipped ones).")
@click.option("--union", "union_ggufs", multiple=True, type=click.Path(dir_okay=False, exists=True),
              help="A single LoRA trained on all four slots' data (one per seed), put on every slot.")
@click.option("--personal", "personal_dir", type=click.Path(file_okay=False, exists=True),
              help="A folder with personal layers per slot (L0.gguf … L3.gguf) stacked on the specialists.")
@click.option("--no-bare", is_flag=True, help="Skip the bare-base arm.")
@click.option("--slots", default="L0,L1,L2,L3", show_default=True, help="Which slots' suites to run.")
@click.option("--split", type=click.Choice(["heldout", "train"]), default="heldout", show_default=True,
              help="Which templates' cases: held-out (the score) or training (a check that a rule is not fitted to held-out).")
@click.option("--out", type=click.Path(dir_okay=False), default=DEFAULT_OUT, show_default=True, help="Also write the result here ('' to skip).")
def bench_specialists(as_json: bool, n_per_slot: int, turns: int, conversations: int, spec_dirs: tuple[str, ...], union_ggufs: tuple[str, ...],
                      personal_dir: str | None, no_bare: bool, slots: str, split: str, out: str) -> None:
    """Bare base vs specialists vs one union LoRA vs specialists + personal layer, per slot, single and multi-turn."""
    from mol_local.adapters.builtin import SHIPPED_DIR
    from mol_local.bench.specialists import arms_from, run_bench

    arms = arms_from([Path(d) for d in spec_dirs] or [SHIPPED_DIR], [Path(u) for u in union_ggufs],
                     Path(personal_dir) if personal_dir else None, bare=not no_bare)
    chosen = tuple(s.strip() for s in slots.split(",") if s.strip())
    result = run_bench(arms, n_per_slot=n_per_slot, turns=turns, conversations=conversations, slots=chosen,
                       log=lambda m: click.echo(m, err=True), split=split)
    write_result("specialists", result, out or None)
