"""`mol bench specialists --split train` scores training templates only, the default held-out ones only."""

from __future__ import annotations

from mol_local.bench.specialists import heldout
from trainer.specialists.ui_data import HELDOUT


def test_each_split_draws_only_its_own_templates() -> None:
    train = heldout(6, ["L3"], split="train")["L3"]
    held = heldout(6, ["L3"])["L3"]
    assert len(train) == len(held) == 6
    assert not any(c.template in HELDOUT for c in train) and all(c.template in HELDOUT for c in held)
