"""Consent records and the one function that yields training-eligible trajectories."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.consent import consent_overview, consent_state, eligible_trajectories, set_consent, training_id
from memory.errors import NotFound
from tests.memory.conftest import commit_turn

REPO = Path(__file__).resolve().parents[2]


def _tasks(db, **kw) -> set[str]:
    return {t.task_id for t in eligible_trajectories(db, **kw)}


def test_default_off_opt_in_and_revoke(db) -> None:
    a = commit_turn(db, "conv-a", "I like jazz", "Noted.")
    b = commit_turn(db, "conv-b", "Plan my week", "Sure.")
    assert _tasks(db) == set()
    assert consent_state(db, "conv-a").source == "default" and not consent_state(db, "conv-a").on
    on = set_consent(db, "conv-a", True)
    assert on.on and on.since
    trajs = list(eligible_trajectories(db))
    assert [t.task_id for t in trajs] == [a]
    assert trajs[0].training_id == training_id(a) and [m["role"] for m in trajs[0].messages] == ["user", "assistant"]
    set_consent(db, "conv-a", False)  # revoked: the latest record wins
    assert _tasks(db) == set()
    assert _tasks(db, default_on=True) == {b}  # HCP consent.default = true covers conversations without a record
    states = {s.conversation_id: s for s in consent_overview(db)}
    assert states["conv-a"].source == "record" and not states["conv-a"].on and states["conv-b"].source == "default"


def test_open_and_forgotten_turns_are_not_eligible(db) -> None:
    closed = commit_turn(db, "c", "first", "one")
    commit_turn(db, "c", "second, still running tools", "...", status="open")
    gone = commit_turn(db, "c", "third", "three")
    db["forgotten_tasks"].insert({"task_id": gone, "reason": "test", "forgotten_at": "now"})
    set_consent(db, "c", True)
    assert _tasks(db) == {closed}
    assert _tasks(db, slot="L2") == set()


def test_unknown_conversation(db) -> None:
    with pytest.raises(NotFound, match="mol chat --list"):
        set_consent(db, "missing", True)
    with pytest.raises(NotFound):
        consent_state(db, "missing")


def test_only_the_consent_module_reads_trajectories_for_training() -> None:
    """The trainer must go through eligible_trajectories, never the timeline tables."""
    offenders = []
    for path in (REPO / "trainer").rglob("*.py") if (REPO / "trainer").is_dir() else []:
        text = path.read_text(encoding="utf-8").lower()
        if any(f"from {t}" in text or f"join {t}" in text for t in ("messages", "tasks", "summaries")):
            offenders.append(str(path.relative_to(REPO)))
    assert offenders == []
