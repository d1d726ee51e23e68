"""Several timed items asked as reminders (mol_local/turn/timed_list.py): every training template of the L1 recipe
is read into exactly the calls its plan makes; other requests are left to the model."""

from __future__ import annotations

import random

import pytest

from mol_local.harness.when import due_at
from mol_local.turn.timed_list import timed_items
from trainer.specialists import agent_data

TRAIN = [(gen, t) for gen, table in ((agent_data.appointment_plans, agent_data.APPOINT),
                                     (agent_data.appointment_days_plans, agent_data.APPOINT_DAYS),
                                     (agent_data.list_plans, agent_data.LIST))
         for t in table if t not in agent_data.HELDOUT and t != "appt_mixed"]  # a lead time per item: the model's


@pytest.mark.parametrize(("gen", "template"), TRAIN, ids=[t for _g, t in TRAIN])
def test_every_training_request_is_read_into_its_plans_calls(gen, template: str) -> None:
    for plan in gen(random.Random(11), [template], 20):
        want = sorted((a["text"], due_at(a["due"], a.get("before"), now=plan.now)) for name, a in plan.rounds[0]([]) if name == "reminders.create")
        got = sorted((c.arguments["text"], due_at(c.arguments["due"], c.arguments.get("before"), now=plan.now)) for c in timed_items(plan.request))
        assert got == want, plan.request


@pytest.mark.parametrize(("request_text", "calls"), [
    ("I have a meeting at 2pm and the dentist at 4pm tomorrow; remind me 30 minutes before each",
     [("a meeting", "tomorrow at 2pm", "30 minutes"), ("the dentist", "tomorrow at 4pm", "30 minutes")]),
    ("I have a haircut at 11am and a call with Sam at 3pm on Monday, remind me an hour before both",
     [("a haircut", "Monday at 11am", "an hour"), ("a call with Sam", "Monday at 3pm", "an hour")]),
    ("Remind me to buy milk at 5pm and call mum at 6pm", [("buy milk", "at 5pm", None), ("call mum", "at 6pm", None)]),
    # no "at": the model set the dentist for "tomorrow 9am" (tried with mol chat)
    ("Set two reminders: dentist Tuesday 2pm and gym Thursday at 7am", [("dentist", "Tuesday at 2pm", None), ("gym", "Thursday at 7am", None)]),
    ("Remind me: dentist on Tuesday 2:30 and the vet Friday noon", [("dentist", "Tuesday at 2:30", None), ("the vet", "Friday at noon", None)]),
])
def test_what_a_person_typed(request_text: str, calls: list) -> None:
    assert [(c.arguments["text"], c.arguments["due"], c.arguments.get("before")) for c in timed_items(request_text)] == calls


@pytest.mark.parametrize("request_text", [
    "Remind me at 8am and 6pm tomorrow to take my medicine",  # one task, two times: times.with_every_time
    "Remind me to pick up bread and milk at 5pm",  # one item
    "Remind me to call mum at 6pm",
    "Remind me about the meeting Tuesday 2 and lunch Friday 1",  # a bare number after a day is no time said
    "I have a meeting at 2pm and a call at 4pm, remind me about the meeting 30 minutes before",  # one of them
    "What time is the meeting at 2pm and the call at 4pm?",  # no reminder asked
    "Tomorrow I have the demo at 1pm and lunch at 3pm. Remind me 90 minutes before the first and 15 minutes before the second.",
    "",
])
def test_anything_else_is_left_to_the_model(request_text: str) -> None:
    assert timed_items(request_text) == []


@pytest.mark.parametrize(("request_text", "calls"), [
    ("Remind me tomorrow morning to call the bank and at noon to email Jo",  # `mol chat` set one: "call the bank" at noon
     [("call the bank", "tomorrow morning"), ("email Jo", "tomorrow at noon")]),
    ("Can you remind me tonight at 8 to call mum and tomorrow at 9am to book the car in?",
     [("call mum", "tonight at 8"), ("book the car in", "tomorrow at 9am")]),
    ("Remind me on Friday to pay rent and on Monday to call Sam", [("pay rent", "on Friday"), ("call Sam", "on Monday")]),
])
def test_two_reminders_each_with_its_time_are_both_set(request_text: str, calls: list[tuple[str, str]]) -> None:
    from mol_local.turn.timed_list import paired_reminders

    assert [(c.arguments["text"], c.arguments["due"]) for c in paired_reminders(request_text)] == calls


@pytest.mark.parametrize("request_text", [
    "Remind me tomorrow to call the bank and email Jo",  # one time: one reminder, the model's
    "Remind me at teatime to do the thing and at the moon to dance",  # a time that does not read
    "What did I say about the bank and at noon to email Jo?",
])
def test_other_requests_are_not_paired(request_text: str) -> None:
    from mol_local.turn.timed_list import paired_reminders

    assert paired_reminders(request_text) == []
