"""RAM estimate and the settings `use` picks: plenty of RAM -> split streams at n_ctx 4096; less -> a unified
buffer or a smaller context; too little for anything -> ModelTooBig naming every part of the sum."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mol_local.catalog.errors import ModelTooBig
from mol_local.catalog.facts import read_facts
from mol_local.catalog.fit import FIXED_OVERHEAD, HEADROOM, MIB, N_UBATCH, PER_TOKEN, RUNTIME_BASELINE, estimate, suggest


@pytest.fixture(scope="module")
def smol(base_model_path: Path):
    return read_facts(base_model_path)


def test_estimate_is_weights_plus_kv_plus_overhead(smol) -> None:
    split = estimate(smol, n_ctx=4096, kv_layout="split")
    assert split.cells == 5 * 4096 and split.kv == 5 * 4096 * 23040
    assert split.weights == smol.file_size
    assert split.overhead == FIXED_OVERHEAD + PER_TOKEN * 49152 + N_UBATCH * 1536 * 8
    unified = estimate(smol, n_ctx=4096, kv_layout="unified", kv_cells=6000)
    assert unified.cells == 6000 and unified.total < split.total
    assert estimate(smol, n_ctx=100_000).n_ctx == 8192  # never past the training context, as the engine caps it


def test_suggest_steps_down_as_ram_shrinks(smol) -> None:
    roomy = suggest(smol, available=64 << 30)
    assert (roomy.n_ctx, roomy.kv_layout) == (4096, "split")
    split_4096 = estimate(smol, n_ctx=4096).with_runtime
    tight = suggest(smol, available=int(split_4096 / HEADROOM) - MIB)  # a MiB short of split at 4096
    assert (tight.n_ctx, tight.kv_layout) == (4096, "unified")
    assert suggest(smol, available=64 << 30, n_ctx=2048, kv_layout="unified").kv_cells == 4096


def test_too_little_ram_is_refused_with_the_numbers(smol) -> None:
    big = replace(smol, title="Big One", file_size=40 << 30)
    with pytest.raises(ModelTooBig) as err:
        suggest(big, available=8 << 30)
    message = str(err.value)
    assert message.startswith("Big One needs about ") and "weights 40.0 GiB" in message and "8.0 GiB is free here" in message
    assert "runtime 512.0 MiB" in message and f"{RUNTIME_BASELINE >> 20}" in message and "the current model stays in use" in message
