"""A reminder before the event just told (mol_local/turn/event_before.py). `mol chat -c`: after "My doctor's appointment
is on 14 January at 10:30", "Remind me about it the day before" got "When should I remind you to mind?"."""

from __future__ import annotations

from datetime import datetime

import pytest

from memory.timeline import MessageRecord, TaskRecord
from mol_local.turn.event_before import event_before

NOW = datetime(2026, 12, 5, 4, 30)


@pytest.mark.parametrize(("request_text", "told", "arguments"), [
    ("Remind me about it the day before", "My doctor's appointment is on 14 January at 10:30",
     {"text": "doctor's appointment", "due": "2027-01-14T10:30", "before": "1 day"}),
    ("remind me an hour before", "The school play is tomorrow at 6pm", {"text": "school play", "due": "2026-12-06T18:00", "before": "1 hour"}),
    ("Can you remind me 2 days before it?", "My dentist appointment is next Friday at 3pm",
     {"text": "dentist appointment", "due": "2026-12-11T15:00", "before": "2 days"}),
    ("Remind me the day before", "I have a dentist appointment on Thursday at 2pm",  # mol chat -c: "When should I remind you
     {"text": "dentist appointment", "due": "2026-12-10T14:00", "before": "1 day"}),  # about the day before?"
    ("remind me an hour before", "I've got a job interview tomorrow at 10am", {"text": "job interview", "due": "2026-12-06T10:00", "before": "1 hour"}),
    ("Remind me the day before", "I need to pay the electricity bill by the 15th",  # mol chat -c: asked "When should I remind
     {"text": "pay the electricity bill", "due": "2026-12-15T09:00", "before": "1 day"}),  # you about the day before?"
    ("Remind me a week before", "My car MOT is due on 20 January",  # mol chat -c: "Sat 5 Dec 2026, 09:00 has already passed"
     {"text": "car MOT", "due": "2027-01-20T09:00", "before": "1 week"}),
    ("Remind me the day before", "My library books are due back on Friday", {"text": "library books", "due": "2026-12-11T09:00", "before": "1 day"}),
    ("Remind me to book the airport transfer a week before", "I'm going to Lisbon from the 12th to the 16th of January",  # mol chat -c:
     {"text": "book the airport transfer", "due": "2027-01-12T09:00", "before": "1 week"}),  # set with no time, open for ever
    ("Remind me the day before", "We're flying to Rome on 20 February", {"text": "trip to Rome", "due": "2027-02-20T09:00", "before": "1 day"}),
])
def test_the_event_told_last_is_the_reminder_before_it(request_text: str, told: str, arguments: dict) -> None:
    (call,) = event_before(request_text.rstrip("?"), told, NOW)
    assert (call.name, call.arguments) == ("reminders.create", arguments)


def test_the_event_told_last_is_the_reminder_before_it_asked_as_a_question() -> None:
    """`mol chat -c`: "Can you remind me 2 hours before?" (its "?" kept) got "Sat 5 Dec 2026, 21:37 has already passed"."""
    (call,) = event_before("Can you remind me 2 hours before?", "My dentist appointment is next Thursday at 3:15pm", NOW)
    assert call.arguments == {"text": "dentist appointment", "due": "2026-12-10T15:15", "before": "2 hours"}


@pytest.mark.parametrize(("request_text", "told"), [
    ("Remind me the day before", "I like cheese"),  # no event at a time
    ("Remind me about it tomorrow", "My doctor's appointment is on 14 January"),  # not "before"
    ("Remind me the day before", "My exam was on 1 December at 9am"),  # past
    ("Remind me the day before", None),
    ("Remind me the day before", "I'm going to bed in a minute"),  # no place named
    ("Remind me to book the transfer a week before my birthday", "I'm going to Lisbon on 12 January"),  # before something else
])
def test_anything_else_is_left_to_the_model(request_text: str, told: str | None) -> None:
    assert event_before(request_text, told, NOW) == []


def test_the_turn_settles_it_from_the_previous_message() -> None:
    from mol_local.turn.times import first_calls

    told = TaskRecord("t1", "c1", 0, "L0", status="closed", messages=[
        MessageRecord("user", "My doctor's appointment is on 14 January at 10:30"), MessageRecord("assistant", "Noted.")])
    (call,) = first_calls("Remind me about it the day before", None, "c1", [told], NOW)
    assert call.arguments == {"text": "doctor's appointment", "due": "2027-01-14T10:30", "before": "1 day"}


def test_an_event_remembered_from_another_conversation_is_found_in_the_recalled_facts() -> None:
    """`mol chat "Remind me the day before my doctor's appointment"` (told in another conversation) set "today", due
    "the day before my doctor's appointment", and the tool asked when."""
    facts = ["The user's car is a blue 2015 Honda Civic", "The user's doctor's appointment is 14 January at 10:30."]
    (call,) = event_before("Remind me the day before my doctor's appointment", None, NOW, facts)
    assert call.arguments == {"text": "doctor's appointment", "due": "2027-01-14T10:30", "before": "1 day"}
    assert event_before("Remind me two hours before my dentist appointment", None, NOW, facts) == []  # not remembered
    said = ["The spare key is under the blue flowerpot", "My daughter Mia has a piano recital on the 19th of December at 6pm"]
    (mia,) = event_before("Remind me the day before Mia's recital", None, NOW, said)  # mol chat: asked when
    assert mia.arguments == {"text": "Mia's recital", "due": "2026-12-19T18:00", "before": "1 day"}
    assert event_before("Remind me the day before Sam's recital", None, NOW, said) == []  # not Sam's
    wife = ["The user's wife is called Elena.", "The user's wife's birthday is on the 2nd of February."]  # stored as the wife's
    (elena,) = event_before("Remind me a week before Elena's birthday", None, NOW, wife)
    assert elena.arguments == {"text": "Elena's birthday", "due": "2027-02-02T09:00", "before": "1 week"}


@pytest.mark.parametrize(("request_text", "arguments"), [
    ("Remind me to renew my passport a month before it expires", {"text": "renew my passport", "due": "2027-02-01T09:00"}),
    ("Remind me to buy teacher gifts a week before the school closes", {"text": "buy teacher gifts", "due": "2026-12-11T09:00"}),
    ("please remind me to book the cattery 2 days before my flight", {"text": "book the cattery", "due": "2027-01-12T09:00"}),
])
def test_a_task_some_time_before_a_dated_thing_the_person_said_is_set_then(request_text: str, arguments: dict) -> None:
    """`mol chat "Remind me to renew my passport a month before it expires"` (said on 5 Nov: "My passport expires in March
    2027, I need to renew it before the wedding") set "renew my passport a month", due "the month before" (refused)."""
    said = ["My passport expires in March 2027, I need to renew it before the wedding",
            "The kids' school closes for Christmas on the 18th of December", "My flight to Lisbon is on 14 January"]
    (call,) = event_before(request_text, None, NOW, said)
    assert call.arguments == arguments


def test_a_date_said_about_something_else_is_not_the_things_date() -> None:
    said = ["My passport expires in March 2027, I need to renew it before the wedding"]
    assert event_before("Remind me to buy a gift a week before the wedding", None, NOW, said) == []  # March is the passport's
    assert event_before("Remind me to renew my passport a month before it expires", None, NOW, []) == []


def test_a_named_date_is_a_day_or_a_months_first_day_and_months_count_back_on_the_calendar() -> None:
    from datetime import date

    from mol_local.turn.dates import months_before, named_date

    assert named_date("My passport expires in March 2027", NOW) == (date(2027, 3, 1), 20)  # not 20 March: "2027" is a year
    assert named_date("The school closes for Christmas on the 18th of December", NOW)[0] == date(2026, 12, 18)  # type: ignore[index]
    assert named_date("Jo is getting married next June", NOW)[0] == date(2027, 6, 1)  # type: ignore[index]
    assert named_date("I like cheese", NOW) is None
    assert months_before(date(2027, 3, 31), 1) == date(2027, 2, 28) and months_before(date(2027, 1, 15), 2) == date(2026, 11, 15)


def test_an_event_told_with_its_reminders_in_one_message_gets_each_at_its_own_time() -> None:
    """`mol chat "My flight to Rome is on the 20th at 8am. Remind me the night before to pack and 3 hours before to leave for
    the airport."`: L1 set "My flight to Rome is" and "the night before to pack", both at 05:00 on the 20th."""
    (pack, leave) = event_before("My flight to Rome is on the 20th at 8am. Remind me the night before to pack and 3 hours before "
                                 "to leave for the airport.", None, NOW)
    assert pack.arguments == {"text": "pack", "due": "2026-12-19T20:00"}
    assert leave.arguments == {"text": "leave for the airport", "due": "2026-12-20T08:00", "before": "3 hours"}
    (iron, go) = event_before("I have a job interview on Tuesday at 2pm. Remind me the morning of to iron my shirt and an hour "
                              "before to leave.", None, NOW)
    assert iron.arguments == {"text": "iron my shirt", "due": "2026-12-08T08:00"}
    assert go.arguments == {"text": "leave", "due": "2026-12-08T14:00", "before": "1 hour"}
    assert event_before("My flight to Rome is on the 20th at 8am. Remind me to pack.", None, NOW) == []  # no when: the model's
    assert event_before("My flight to Rome is on the 20th at 8am. Remind me the night before to pack and water the plants "
                        "on Monday.", None, NOW) == []  # words no pair accounts for


def test_two_reminders_set_for_one_time_are_listed_by_their_own_words_and_no_before_is_claimed() -> None:
    """`mol chat "… Remind me on Friday at 5pm to buy wine and make a shopping list for lasagne."`: "Set. You'll get a reminder 3
    times, each time around its own time: - Fri 11 Dec 2026, 17:00: buy wine (at 18:00) …"."""
    from mol_local.turn.times import said_as_set

    answer = ("Set. You'll get a reminder 3 times, each time around its own time:\n- Fri 11 Dec 2026, 17:00: buy wine (at 18:00)\n"
              "- Fri 11 Dec 2026, 17:00: make a shopping list for lasagne (at 19:30)")
    calls = [{"name": "reminders.create", "arguments": {"text": t, "due": "on Friday at 5pm"},
              "result": f"Reminder 39b09b51c06{i} set for Fri 11 Dec 2026, 17:00: {t}"} for i, t in enumerate(("buy wine", "make a shopping list for lasagne"))]
    assert said_as_set(answer, calls) == ("Done — two reminders:\n- Fri 11 Dec 2026, 17:00: buy wine\n"
                                          "- Fri 11 Dec 2026, 17:00: make a shopping list for lasagne")


def test_a_task_named_after_the_event_is_the_reminder_before_it() -> None:
    """`mol chat -c` after "My partner is called Alex and her birthday is on 12 May": "Remind me two days before Alex's
    birthday to buy flowers" answered with the tool call's markup, nothing set."""
    facts = ["The user's partner is called Alex.", "The user's partner's birthday is on 12 May."]
    (flowers,) = event_before("Remind me two days before Alex's birthday to buy flowers", None, NOW, facts)
    assert flowers.arguments == {"text": "buy flowers", "due": "2027-05-12T09:00", "before": "2 days"}
    (cake,) = event_before("Remind me the day before my partner's birthday to order a cake", None, NOW, facts)
    assert cake.arguments == {"text": "order a cake", "due": "2027-05-12T09:00", "before": "1 day"}
    (trip,) = event_before("Remind me the day before my trip to Paris", None, NOW, ["My trip to Paris is on 3 March"])
    assert trip.arguments["text"] == "trip to Paris"  # "to Paris" is where, not a task


def test_an_event_said_to_repeat_on_a_weekday_is_its_next_one() -> None:
    """`mol chat`, said weeks before ("The kids' swimming lessons moved to Thursdays at 5pm"): "Remind me the day before
    the swimming lesson to pack the towels" got "I don't know your memory yet"."""
    said = ["The kids' swimming lessons moved to Thursdays at 5pm"]
    (towels,) = event_before("Remind me the day before the swimming lesson to pack the towels", None, NOW, said)
    assert towels.arguments == {"text": "pack the towels", "due": "2026-12-10T17:00", "before": "1 day"}  # NOW is a Saturday
    assert event_before("Remind me the day before the piano lesson to pack the towels", None, NOW, said) == []  # not said


def test_an_item_of_the_day_just_planned_is_the_event_a_reminder_goes_before() -> None:
    """`mol chat -c` at 23:00 on a Saturday, after "Plan my Saturday: swim at 9, lunch with Alex at 1, cinema at 7":
    "Remind me 30 minutes before the cinema" was set with no time (then refused), and L0 said "The request didn't run"."""
    late, plan = NOW.replace(hour=23), "Plan my Saturday: swim at 9, lunch with Alex at 1, cinema at 7"
    (cinema,) = event_before("Remind me 30 minutes before the cinema", plan, late)
    assert cinema.arguments == {"text": "cinema", "due": "2026-12-12T19:00", "before": "30 minutes"}  # next Saturday's, at 19:00
    (lunch,) = event_before("Remind me an hour before lunch with Alex", plan, late)
    assert lunch.arguments == {"text": "lunch with Alex", "due": "2026-12-12T13:00", "before": "1 hour"}
    assert event_before("Remind me 30 minutes before the dentist", plan, late) == []  # not in the plan


def test_a_thing_due_by_a_day_said_weeks_before_is_found_in_what_was_said() -> None:
    """`mol chat`, said on 25 Nov ("My boss Karen wants the quarterly report by the 18th"): "Remind me the day before the
    quarterly report is due" got "I don't know your boss Karen wants the quarterly report by the 18th."."""
    said = ['You said: "My boss Karen wants the quarterly report by the 18th"']
    (call,) = event_before("Remind me the day before the quarterly report is due", None, NOW, said)
    assert call.arguments == {"text": "quarterly report", "due": "2026-12-18T09:00", "before": "1 day"}


def test_the_morning_of_or_the_night_before_the_event_told_last_with_a_task() -> None:
    """`mol chat -c` after "I have a job interview on Wednesday at 2pm": "Remind me the morning of to print my CV" got
    "due 'the morning of to print my CV' is not a time I can read"."""
    told = "I have a job interview on Wednesday at 2pm"  # NOW is Saturday 5 December
    (cv,) = event_before("Remind me the morning of to print my CV", told, NOW)
    assert cv.arguments == {"text": "print my CV", "due": "2026-12-09T08:00"}
    (night,) = event_before("remind me the night before", told, NOW)
    assert night.arguments == {"text": "job interview", "due": "2026-12-08T20:00"}
    (shirt,) = event_before("Remind me the day before to iron my shirt", told, NOW)
    assert shirt.arguments == {"text": "iron my shirt", "due": "2026-12-09T14:00", "before": "1 day"}
    assert event_before("Remind me the morning of to print my CV", "I like Wednesdays", NOW) == []  # no event told


def test_the_event_told_a_question_ago_is_still_the_one_a_reminder_is_set_before(scripted_runtime) -> None:
    """`mol chat -c`: "I've got a job interview next Tuesday at 10am", "What should I prepare?", then "Remind me the night
    before to iron my shirt" got "You can't read due to time." (due "the night before", refused): the event was two turns back."""
    from tests.mol_local.conftest import call

    rt, scripted = scripted_runtime(["Good luck!", "Bring your CV.", "never read"])
    session = rt.session()
    session.run_turn("I've got a job interview next Tuesday at 10am", slot="L0")
    session.run_turn("What should I prepare?", slot="L0")
    got = session.run_turn("Remind me the night before to iron my shirt", slot="L0")
    assert got.answer == "Reminder set for Mon 7 Dec 2026, 20:00: iron my shirt." and scripted.outputs == ["never read"]
    scripted.outputs = [call("reminders.create", text="iron my shirt", due="the night before"), "You can't read due to time."]
    alone = rt.session().run_turn("Remind me the night before to iron my shirt", slot="L0")  # no event told: the refusal is said
    assert alone.answer.startswith("I couldn't set that reminder: due 'the night before' is not a time I can read")


def test_a_task_of_any_common_verb_after_a_remembered_event_is_set_before_it() -> None:
    """`mol chat`, "My daughter Lily's school play is on December 17th" said three weeks before: "Remind me the day
    before Lily's play to iron her costume" got "I don't know your daughter Lily's school play is on December 17th yet"."""
    said = ["My daughter Lily's school play is on December 17th"]
    (iron,) = event_before("Remind me the day before Lily's play to iron her costume", None, NOW, said)
    assert iron.arguments == {"text": "iron her costume", "due": "2026-12-17T09:00", "before": "1 day"}
    (wash,) = event_before("Remind me two days before Lily's play to wash her tights", None, NOW, said)
    assert wash.arguments["before"] == "2 days" and wash.arguments["text"] == "wash her tights"
