"""The route recipe's data: enough per slot, held-out templates disjoint from training, no dev-set leakage."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from trainer.route_data import TEMPLATES, requests

DEV = Path(__file__).resolve().parents[1] / "data" / "route_dev.jsonl"  # a copy of the shared dev set: tests read nothing outside the repo


def test_several_hundred_per_slot_and_deterministic() -> None:
    rows = list(requests("train", per_slot=320))
    assert Counter(r["slot"] for r in rows) == {"L0": 320, "L1": 320, "L2": 320, "L3": 320}
    assert rows == list(requests("train", per_slot=320))
    assert all(len(t) >= 30 for t in TEMPLATES.values())


def test_heldout_uses_templates_training_never_sees() -> None:
    train = {r["text"] for r in requests("train")}
    held = list(requests("heldout"))
    assert len(held) >= 200 and not train & {r["text"] for r in held}
    assert Counter(r["slot"] for r in held) == dict.fromkeys(("L0", "L1", "L2", "L3"), 53)


def test_every_slot_mixes_languages_so_script_is_no_label_cue() -> None:
    for slot, templates in TEMPLATES.items():
        non_ascii = [t for t in templates if not t.isascii()]
        assert len(non_ascii) >= 6, slot
        assert any(i % 6 == 5 for i, t in enumerate(templates) if not t.isascii()), slot


def test_unknown_split_is_refused() -> None:
    with pytest.raises(ValueError, match="split must be one of train, heldout"):
        next(requests("dev"))


def test_dev_set_is_not_in_training_data() -> None:
    dev = {json.loads(line)["text"] for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert not dev & {r["text"] for r in requests("train", per_slot=320)}
