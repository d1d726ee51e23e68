"""Validated tool reuse: stage, promote only after held-out tests pass, demote on failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mol_local.harness.errors import BadArguments, PromotionFailed, SkillNotFound
from mol_local.harness.hub import ToolHub
from tests.mol_local.harness.conftest import FAST, call

WEEKDAY = '''import datetime


def weekday_of(date):
    """Weekday name of an ISO date."""
    return datetime.date.fromisoformat(date).strftime("%A")
'''
WEEKDAY_TESTS = [{"args": {"date": "2026-11-30"}, "expect": "Monday"}, {"args": {"date": "2024-02-29"}, "expect": "Thursday"}]


def _promote(hub: ToolHub, harness) -> None:
    text, status = call(harness, "save_tool", {"name": "weekday_of", "source": WEEKDAY, "tests": WEEKDAY_TESTS})
    assert status == "ok" and "promote_tool" in text
    assert "weekday_of" not in hub.specs()  # staged is not callable
    text, status = call(harness, "promote_tool", {"name": "weekday_of"})
    assert status == "ok" and "2 held-out tests passed" in text


def test_promoted_tool_is_callable_in_every_conversation(hub: ToolHub, harness, mol_home: Path) -> None:
    _promote(hub, harness)
    other = hub.runner("another-conversation")
    assert call(other, "weekday_of", {"date": "2026-12-25"}) == ('result: "Friday"', "ok")
    assert "- weekday_of(date): Weekday name of an ISO date." in hub.describe()
    (row,) = [r for r in hub.skills.list() if r["name"] == "weekday_of"]
    assert row["status"] == "promoted" and Path(row["path"]) == mol_home / "tools" / "weekday_of"
    assert (Path(row["path"]) / "tool.py").read_text() == WEEKDAY
    import hashlib

    assert row["sha256"] == hashlib.sha256(WEEKDAY.encode()).hexdigest()
    assert [e["event"] for e in hub.skills.events("weekday_of")] == ["staged", "promoted"]


def test_failing_held_out_tests_block_promotion(hub: ToolHub, harness) -> None:
    wrong = [{"args": {"date": "2026-11-30"}, "expect": "Tuesday"}]
    call(harness, "save_tool", {"name": "weekday_of", "source": WEEKDAY, "tests": wrong})
    text, status = call(harness, "promote_tool", {"name": "weekday_of"})
    assert status == "error" and "failed 1 of 1 held-out tests" in text and 'expected "Tuesday", got "Monday"' in text
    assert "weekday_of" not in hub.specs()
    assert [e["event"] for e in hub.skills.events("weekday_of")] == ["staged", "rejected"]


def test_promotion_runs_in_a_fresh_sandbox(hub: ToolHub, harness) -> None:
    """A helper that only works thanks to state in the conversation's session must not pass."""
    call(harness, "python", {"code": "import builtins\nbuiltins.MAGIC = 7"})
    source = "def magic():\n    return MAGIC\n"
    hub.skills.save("magic", source, [{"args": {}, "expect": 7}])
    with pytest.raises(PromotionFailed, match="NameError"):
        hub.promote("magic")


def test_promotion_of_a_tool_that_loops_forever_is_rejected(hub: ToolHub) -> None:
    hub.skills.save("spin", "def spin():\n    while True:\n        pass\n", [{"args": {}, "expect": None}])
    with pytest.raises(PromotionFailed, match="CPU time limit"):
        hub.promote("spin")


def test_a_promoted_tool_that_fails_is_demoted_and_logged(hub: ToolHub, harness) -> None:
    _promote(hub, harness)
    text, status = call(harness, "weekday_of", {"date": "not a date"})
    assert status == "error" and "ValueError" in text and "was demoted" in text
    assert "weekday_of" not in hub.specs()
    events = hub.skills.events("weekday_of")
    assert events[-1]["event"] == "demoted" and "ValueError" in json.loads(events[-1]["detail"])["reason"]
    text, status = call(harness, "weekday_of", {"date": "2026-11-30"})
    assert status == "unknown_tool"


def test_wrong_arguments_do_not_demote(hub: ToolHub, harness) -> None:
    _promote(hub, harness)
    text, status = call(harness, "weekday_of", {"day": "2026-11-30"})
    assert status == "bad_arguments" and "did you mean 'date'" in text
    assert "weekday_of" in hub.specs()


def test_a_changed_file_is_demoted_before_it_runs(hub: ToolHub, harness, mol_home: Path) -> None:
    _promote(hub, harness)
    path = mol_home / "tools" / "weekday_of" / "tool.py"
    path.write_text(WEEKDAY.replace("%A", "%a") + "\nimport os\n")
    text, status = call(harness, "weekday_of", {"date": "2026-11-30"})
    assert status == "unknown_tool" and "changed after promotion" in text
    assert hub.skills.events("weekday_of")[-1]["event"] == "demoted"


def test_save_validates_name_source_and_tests(hub: ToolHub) -> None:
    with pytest.raises(BadArguments, match="not allowed"):
        hub.skills.save("python", "def python():\n    return 1\n", [{"args": {}, "expect": 1}])
    with pytest.raises(BadArguments, match="not allowed"):
        hub.skills.save("Bad-Name", "def f():\n    return 1\n", [{"args": {}, "expect": 1}])
    with pytest.raises(BadArguments, match="does not parse"):
        hub.skills.save("f", "def f(:\n", [{"args": {}, "expect": 1}])
    with pytest.raises(BadArguments, match="no top-level function named 'g'"):
        hub.skills.save("g", "def f():\n    return 1\n", [{"args": {}, "expect": 1}])
    with pytest.raises(BadArguments, match="non-empty list"):
        hub.skills.save("f", "def f():\n    return 1\n", [])
    with pytest.raises(BadArguments, match="not valid JSON"):
        hub.skills.save("f", "def f():\n    return 1\n", "[{")
    with pytest.raises(BadArguments, match="must be an object with `args`"):
        hub.skills.save("f", "def f():\n    return 1\n", [{"input": 1}])


def test_promote_and_demote_unknown_names(hub: ToolHub) -> None:
    with pytest.raises(SkillNotFound, match="no saved tool named 'ghost'"):
        hub.promote("ghost")
    with pytest.raises(SkillNotFound):
        hub.skills.demote("ghost", "x")


def test_promotion_is_recorded_in_the_versioned_hcp(db, mol_home: Path) -> None:
    from hcp import load_hcp, load_profile
    from mol_local.harness import build_hub

    hub = build_hub(load_profile("local-default"), db, home=mol_home)
    assert hub is not None
    try:
        hub.skills.save("weekday_of", WEEKDAY, WEEKDAY_TESTS)
        report = hub.promote("weekday_of")
        assert report.hcp.startswith("recorded in HCP version")
        hcp = load_hcp(mol_home / "hcp.toml")
        assert hcp.skills["weekday_of"].sha256 == report.sha256
        assert hcp.resolve_path(hcp.skills["weekday_of"].path) == mol_home / "tools" / "weekday_of" / "tool.py"
        hub.skills.demote("weekday_of", "test")
        assert "weekday_of" not in load_hcp(mol_home / "hcp.toml").skills
    finally:
        hub.close()


def test_limits_used_for_promotion_come_from_the_python_tool(hub: ToolHub) -> None:
    assert hub.config.limits_for("python") == FAST
