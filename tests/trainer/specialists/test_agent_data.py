"""L1 cases: whole-template hold-outs, every kept case ran in the real harness, and plans that get the state wrong are dropped."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime

import pytest

from trainer.specialists import agent_data
from trainer.specialists.agent_plain import MEAL
from trainer.specialists.data import scratch_runtime
from trainer.specialists.toolrun import Plan, materialize, minute

FAMILIES = ("appt", "rn", "list", "tick", "plan", "meal", "pack", "budget", "trip")


@pytest.fixture(scope="module")
def rt():
    with scratch_runtime() as runtime:
        yield runtime


@pytest.fixture(scope="module")
def train(rt):
    kept, dropped = materialize(agent_data.plans("train", scale=0.3), rt)
    return kept, dropped


def _calls(message: dict) -> list[dict]:
    parts = message["content"].split("<tool_call>")[1:]
    return [json.loads(p.split("</tool_call>")[0]) for p in parts]


def test_every_template_yields_plans_and_the_splits_share_no_template() -> None:
    train = {p.template for p in agent_data.plans("train", scale=1.0)}
    held = {p.template for p in agent_data.plans("heldout", scale=1.0)}
    assert train | held == set(agent_data.TEMPLATES)
    assert not train & held and held == set(agent_data.HELDOUT)
    for family in FAMILIES:
        assert any(t.startswith(family) for t in train) and any(t.startswith(family) for t in held), family
    assert 350 <= len(agent_data.plans("train")) <= 550 and 0.25 <= len(agent_data.plans("heldout")) / len(agent_data.plans("train")) <= 0.35


def test_plans_are_the_same_for_a_seed_and_differ_between_seeds() -> None:
    first = [p.request for p in agent_data.plans("train", seed=3, scale=0.2)]
    assert first == [p.request for p in agent_data.plans("train", seed=3, scale=0.2)]
    assert first != [p.request for p in agent_data.plans("train", seed=4, scale=0.2)]


def test_a_sample_of_both_splits_materializes_with_nothing_dropped(rt, train) -> None:
    kept, dropped = train
    assert dropped == [] and len(kept) >= 100
    held, held_dropped = materialize(agent_data.plans("heldout", scale=0.3), rt)
    assert held_dropped == [] and {c.template for c in held} == set(agent_data.HELDOUT)
    for case in kept + held:
        assert 0 < len(case.summary.split()) <= agent_data.MAX_SUMMARY_WORDS, case.summary
        assert "<tool_call>" not in case.answer and case.check["now"]


def test_appointments_are_one_message_of_calls_and_the_answer_repeats_every_time_the_tool_set(train) -> None:
    case = next(c for c in train[0] if c.template == "appt_each")
    calls = _calls(case.gold[0])
    assert len(calls) >= 2 and all(c["name"] == "reminders.create" and c["arguments"]["before"] for c in calls)
    results = [m["content"] for m in case.gold[1:-1]]
    assert len(results) == len(calls) and all(r.startswith("Reminder ") for r in results)
    for result in results:
        assert agent_data.said_time(result) in case.answer
    assert [w["at"] for w in case.check["reminders"]] == [
        datetime.strptime(agent_data.said_time(r), "%a %d %b %Y, %H:%M").strftime("%Y-%m-%dT%H:%M") for r in results]


def test_tick_off_completes_the_id_the_real_list_printed(train) -> None:
    case = next(c for c in train[0] if c.template == "tick_off")
    listed, done = case.gold[1]["content"], case.check["completed"][0]
    wanted = next(line.split(" · ")[0] for line in listed.splitlines() if line.endswith(" · " + done))
    assert [c["arguments"]["id"] for c in _calls(case.gold[2])] == [wanted]
    assert _calls(case.gold[0]) == [{"name": "reminders.list", "arguments": {}}]


def test_a_meal_plan_from_the_tail_names_the_ruled_out_food_only_in_the_tail(train) -> None:
    case = next(c for c in train[0] if c.template == "meal_tail")
    word = case.check["answer"]["not"][0]
    assert word not in case.request.lower() and any(word in n.lower() for n in case.notes)
    assert word not in case.answer.lower() and len(case.gold) == 1
    assert "{excl}" not in MEAL["meal_tail"]


def test_reminders_at_the_wrong_minute_are_dropped(rt) -> None:
    now = datetime(2026, 12, 1, 10, 0)
    meant = now.replace(day=2, hour=13, minute=30)
    plan = Plan("L1", "appt_each", "I have the dentist at 2pm and the book club at 4pm tomorrow — remind me 30 minutes before each", now,
                rounds=[lambda _o: [("reminders.create", {"text": "the dentist", "due": "tomorrow at 2pm"}),  # `before` forgotten
                                    ("reminders.create", {"text": "the book club", "due": "tomorrow at 4pm", "before": "30 minutes"})]],
                answer=lambda _o: "Done: 13:30 and 15:30.", summary=lambda _o: "Set two reminders.",
                check={"reminders": [{"text": "the dentist", "at": minute(meant)}, {"text": "the book club", "at": minute(meant.replace(hour=15))}],
                       "answer": {"has": ["13:30", "15:30"]}})
    kept, dropped = materialize([plan], rt)
    assert kept == [] and "no reminder 'the dentist' at 2026-12-02T13:30" in dropped[0][1]


def test_completing_the_wrong_reminder_is_dropped(rt) -> None:
    plan = next(p for p in agent_data.plans("train", scale=0.3) if p.template == "tick_off")
    done = plan.check["completed"][0]

    def wrong(o: list[str]) -> list:
        other = next(line.split(" · ")[0] for line in o[0].splitlines() if not line.endswith(" · " + done))
        return [("reminders.complete", {"id": other})]

    kept, dropped = materialize([dataclasses.replace(plan, rounds=[plan.rounds[0], wrong])], rt)
    assert kept == [] and f"{done!r} not completed" in dropped[0][1] and "completed but not asked" in dropped[0][1]


def test_a_new_reminder_instead_of_ticking_one_off_is_dropped(rt) -> None:
    plan = next(p for p in agent_data.plans("train", scale=0.3) if p.template.startswith("tick_") and p.template != "tick_both")
    done = plan.check["completed"][0]
    kept, dropped = materialize([dataclasses.replace(plan, rounds=[lambda _o: [("reminders.create", {"text": done})]])], rt)
    assert kept == [] and "1 reminders, wanted 0" in dropped[0][1] and "not completed" in dropped[0][1]


def test_a_plan_note_missing_an_item_or_a_meal_plan_with_the_ruled_out_food_is_dropped(rt) -> None:
    plan = next(p for p in agent_data.plans("train", scale=0.3) if p.template == "plan_my")
    title, body = plan.rounds[0]([])[0][1].values()
    short = "\n".join(body.splitlines()[:-1])
    meal = next(p for p in agent_data.plans("train", scale=0.3) if p.template == "meal_plan")
    word = meal.check["answer"]["not"][0]
    kept, dropped = materialize([
        dataclasses.replace(plan, rounds=[lambda _o: [("notes.create", {"title": title, "body": short})]]),
        dataclasses.replace(meal, answer=lambda o: meal.answer(o) + f"\nSnack: {word} on toast"),
    ], rt)
    assert kept == [] and "no note with" in dropped[0][1] and f"answer says {word!r}" in dropped[1][1]


def test_a_trip_plan_is_words_alone_with_every_day_and_liked_thing_and_a_reminder_for_it_is_dropped(rt, train) -> None:
    case = next(c for c in train[0] if c.template.startswith("trip_") and c.check["answer"]["not"])
    assert len(case.gold) == 1 and "<tool_call>" not in case.answer  # no call: the person asked for a plan, not a reminder
    assert all(w.lower() in case.answer.lower() for w in case.check["answer"]["has"])
    assert case.check["answer"]["not"][0] not in case.answer.lower()
    plan = next(p for p in agent_data.plans("train", scale=0.3) if p.template.startswith("trip_"))
    remind = [lambda _o: [("reminders.create", {"text": "museum", "due": "tomorrow 9am"})]]
    kept, dropped = materialize([dataclasses.replace(plan, rounds=remind)], rt)
    assert kept == [] and "called a tool when none was needed" in dropped[0][1]


def test_a_tick_off_answer_copies_what_is_still_open_from_the_completion(train) -> None:
    """The shipped L1 wrote "Still open: pay the rent (…08:00)" for a 07:30 reminder, from the list it read a round
    earlier; the completion now says what is left, and the answer says it back word for word."""
    ticks = [c for c in train[0] if c.template.startswith("tick_")]
    assert ticks
    for case in ticks:
        last = [m["content"] for m in case.gold if m["role"] == "tool"][-1]
        rest = last[last.index("Still open:"):] if "Still open:" in last else "Nothing else is open."
        assert last.startswith("Done: ") and agent_data.yours(rest) in case.answer, (last, case.answer)
