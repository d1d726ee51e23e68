"""The route recipe's data: enough per slot, held-out templates disjoint from training, no dev-set leakage."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from trainer.route_data import TEMPLATES, requests

DEV = Path(__file__).resolve().parents[3] / "shared" / "eval" / "route_dev.jsonl"


def test_several_hundred_per_slot_and_deterministic() -> None:
    rows = list(requests("train", per_slot=320))
    assert Counter(r["slot"] for r in rows) == {"L0": 320, "L1": 320, "L2": 320, "L3": 320}
    assert rows == list(requests("train", per_slot=320))
    assert all(len(t) >= 30 for t in TEMPLATES.values())


def test_heldout_uses_templates_training_never_sees() -> None:
    train = {r["text"] for r in requests("train")}
    held = list(requests("heldout"))
    assert len(held) >= 80 and not train & {r["text"] for r in held}
    assert {r["slot"] for r in held} == {"L0", "L1", "L2", "L3"}


def test_dev_set_is_not_in_training_data() -> None:
    dev = {json.loads(line)["text"] for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert not dev & {r["text"] for r in requests("train", per_slot=320)}
