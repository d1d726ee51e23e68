"""Selection and filtering: consent, failed turns, PII, dedupe, hold-out, replay — on real SQLite."""

from __future__ import annotations

import time

from memory.consent import set_consent, training_id
from trainer.select import dedupe, pick_holdout, select, still_eligible
from tests.trainer.conftest import FACTS, commit


def _task_ids(rt, conv: str) -> set[str]:
    return {r["id"] for r in rt.db.query("select id from tasks where conversation_id = ?", [conv])}


def test_only_consented_conversations_are_selected(runtime) -> None:
    on = commit(runtime, FACTS[:4], consent=True)
    off = commit(runtime, [("secret plan?", "The secret plan is to paint the fence blue.")] * 1, consent=False)
    revoked = commit(runtime, [("my diary", "Dear diary, today was long.")], consent=True)
    set_consent(runtime.db, revoked, False)
    default = commit(runtime, [("no record", "This conversation never had consent.")], consent=None)
    sel = select(runtime.db, "L1", default_on=False, since=None)
    picked = {t.task_id for t in sel.train + sel.holdout + sel.replay}
    assert picked == _task_ids(runtime, on)
    for conv in (off, revoked, default):
        assert not picked & _task_ids(runtime, conv)
    texts = " ".join(m["content"] for t in sel.train + sel.holdout for m in t.messages)
    assert "fence" not in texts and "diary" not in texts


def test_failed_tool_turns_dropped_and_pii_scrubbed(runtime) -> None:
    commit(runtime, [("check my calendar", "I could not read it.")], tool="Error: calendar tool timed out")
    commit(runtime, [("email my boss", "Sent to boss@corp.example.com from +32 471 23 45 67.")] + FACTS[:3])
    sel = select(runtime.db, "L1", default_on=False, since=None)
    assert sel.dropped["tool_failed"] == 1
    texts = " ".join(m["content"] for t in sel.train + sel.holdout for m in t.messages)
    assert "boss@corp.example.com" not in texts and "471 23" not in texts
    assert "[EMAIL]" in texts and sel.scrubbed["EMAIL"] == 1 and sel.scrubbed["PHONE"] == 1


def test_exact_and_near_duplicates_dropped(runtime) -> None:
    same = ("What is my favourite tea?", "Your favourite tea is jasmine green tea, always in the morning with honey.")
    near = ("What is my favourite tea?", "Your favourite tea is jasmine green tea, always in the morning with some honey.")
    commit(runtime, [same, same, near, FACTS[0], FACTS[1]])
    sel = select(runtime.db, "L1", default_on=False, since=None)
    assert sel.dropped["duplicate"] == 1 and sel.dropped["near_duplicate"] == 1
    assert len(sel.train) + len(sel.holdout) == 3


def test_holdout_is_disjoint_and_replay_comes_from_older_data(runtime) -> None:
    commit(runtime, FACTS[:4])
    cut = max(r["closed_at"] for r in runtime.db.query("select closed_at from tasks"))
    time.sleep(0.005)  # timestamps have millisecond resolution: a commit in the same millisecond would tie with the cut
    commit(runtime, FACTS[4:])
    sel = select(runtime.db, "L1", default_on=False, since=cut, replay_ratio=1.0)
    new_ids = {t.task_id for t in sel.train} | {t.task_id for t in sel.holdout}
    assert len(new_ids) == 4 and sel.holdout and not {t.task_id for t in sel.train} & {t.task_id for t in sel.holdout}
    assert sel.replay and all(t.created_at <= cut for t in sel.replay)
    assert all(t.training_id == training_id(t.task_id) for t in sel.train)


def test_consent_recheck_drops_a_conversation_turned_off(runtime) -> None:
    keep = commit(runtime, FACTS[:3])
    flip = commit(runtime, FACTS[3:6])
    sel = select(runtime.db, "L1", default_on=False, since=None, holdout_fraction=0.0)
    set_consent(runtime.db, flip, False)
    left = still_eligible(runtime.db, sel.train, slot="L1", default_on=False)
    assert {t.conversation_id for t in left} == {keep}


def test_dedupe_keeps_distinct_texts() -> None:
    from collections import Counter

    from memory.consent import Trajectory

    items = [Trajectory("c", str(i), str(i), "L1", "t", [{"role": "user", "content": u}, {"role": "assistant", "content": a}]) for i, (u, a) in enumerate(FACTS)]
    counts: Counter = Counter()
    assert len(dedupe(items, counts)) == len(FACTS) and not counts


def test_holdout_is_an_exact_share_stable_and_never_everything() -> None:
    from memory.consent import Trajectory

    def trajs(n: int, tag: str) -> list[Trajectory]:
        return [Trajectory("c", f"{tag}{i}", training_id(f"{tag}{i}"), "L1", "t") for i in range(n)]

    for tag in "abcdefgh":  # eight different id draws: the count never depends on the draw
        eight = trajs(8, tag)
        held = pick_holdout(eight, 0.2)
        assert len(held) == 2 and held == pick_holdout(list(reversed(eight)), 0.2)[::-1]
    assert len(pick_holdout(trajs(40, "x"), 0.2)) == 8
    assert len(pick_holdout(trajs(3, "y"), 0.2)) == 1  # at least one to score the night on
    assert len(pick_holdout(trajs(2, "z"), 0.9)) == 1  # never all: something must be left to train on
    assert pick_holdout(trajs(1, "w"), 0.2) == [] and pick_holdout(trajs(8, "v"), 0.0) == []


def test_code_that_failed_its_check_is_dropped_and_the_check_s_notes_are_not_trained_on(runtime) -> None:
    """A code answer carries lines the check wrote after running it ("(I ran it on a few cases: …)"): a layer trained on
    them would say it ran code it never ran; and an answer whose code failed every draft is no example at all."""
    code = "```python\ndef is_even(n: int) -> bool:\n    return n % 2 == 0\n```"
    failed = "```python\ndef is_even(n: int) -> bool:\n    return n > 2\n```\n\nI ran this and it does not work yet: is_even(6) should be True."
    commit(runtime, [("Write a function that checks whether a number is even",
                      code + "\n\n(I ran it on a few cases: is_even(6) gives True; is_even(9) gives False.)"),
                     ("Write is_even", failed)] + FACTS[:3])
    sel = select(runtime.db, "L1", default_on=False, since=None)
    assert sel.dropped["code_failed"] == 1
    answers = [m["content"] for t in sel.train + sel.holdout for m in t.messages if m["role"] == "assistant"]
    assert code in answers and not any("I ran" in a for a in answers)
