"""`mol bench memory` logic on a small store: the JSON it reports and the baseline beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mol_local.bench.memory import load_recall_set, run_memory_bench, synthetic_texts

pytestmark = pytest.mark.slow


def test_labelled_set_and_distractors_are_disjoint() -> None:
    labelled = load_recall_set()
    assert len(labelled) >= 50 and all(item["fact"] != item["query"] for item in labelled)
    distractors = synthetic_texts(2000)
    assert len(set(distractors)) == 2000 and not {i["fact"] for i in labelled} & set(distractors)


def test_small_run_reports_both_methods(tmp_path: Path) -> None:
    result = run_memory_bench(300, batch=100, workdir=tmp_path)
    assert result["n"] == 300 and result["add_per_s"] > 0
    for block in (result, result["baseline"]):
        assert 0.0 <= block["recall_at_5"] <= 1.0 and 0 < block["search_p50_ms"] <= block["search_p95_ms"]
    assert result["recall_at_5"] > result["baseline"]["recall_at_5"]  # paraphrases defeat keywords, not vectors
    assert list(tmp_path.iterdir()) == []  # the throw-away store is gone
