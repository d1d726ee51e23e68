"""The evaluation set and the bench's scoring; one tiny real run of `mol bench genui`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mol_local.bench.genui import adherence, load_eval, summarise
from mol_local.genui.catalog import COMPONENTS

from .conftest import PLANNER


def test_eval_set_has_forty_requests_naming_catalog_components():
    items = load_eval()
    assert len(items) >= 40 and len({i["id"] for i in items}) == len(items)
    assert all(i["components"] and set(i["components"]) <= set(COMPONENTS) for i in items)


def test_adherence_counts_required_components_with_their_fields():
    raw = json.dumps(PLANNER)
    assert adherence(raw, ["Checklist", "Form"]) == 1.0
    assert adherence(raw, ["Checklist", "Timer"]) == 0.5
    broken = json.loads(raw)
    del broken["components"][1]["bind"]  # a Checklist without bind or source is not a usable Checklist
    assert adherence(json.dumps(broken), ["Checklist"]) == 0.0
    assert adherence("not json", ["Checklist"]) == 0.0


def test_summarise_counts_valid_before_and_after_the_deterministic_repair():
    rec = {"parsed": True, "valid": False, "repaired": True, "adherence": 1.0, "gen_ms": 10}
    records = [dict(rec), dict(rec, valid=True, gen_ms=30), dict(rec, parsed=False, repaired=False, adherence=0.0, gen_ms=20)]
    assert summarise(records) == {"parse_rate": 2 / 3, "semantic_valid_rate": 1 / 3, "semantic_valid_rate_repaired": 2 / 3,
                                  "constraint_adherence": 2 / 3, "gen_ms_p50": 20}


@pytest.mark.slow
def test_bench_cli_prints_the_eight_keys(tmp_path):
    from mol_local.cli import cli, import_commands

    import_commands()
    out = tmp_path / "genui.json"
    res = CliRunner().invoke(cli, ["bench", "genui", "--json", "--limit", "1", "--max-tokens", "16", "--out", str(out)])
    assert res.exit_code == 0, res.output
    line = json.loads(res.output.strip().splitlines()[-1])
    for key in ("parse_rate", "semantic_valid_rate", "constraint_adherence", "gen_ms_p50"):
        assert 0 <= line[key] and 0 <= line[f"{key}_no_grammar"]
    assert line["semantic_valid_rate"] <= line["semantic_valid_rate_repaired"] <= 1
    assert line["requests"] == 1 and json.loads(out.read_text())["max_tokens"] == 16
