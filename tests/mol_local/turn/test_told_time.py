"""A reminder asked for with no time offers the time told about the same thing, and a lead time sets it (turn/told_time.py)."""

from __future__ import annotations

from datetime import datetime

from memory.store import new_memory, said_text
from mol_local.harness.store import local_due
from mol_local.turn.told_time import told_before, told_time
from tests.mol_local.conftest import NOW, call

SUNDAY = datetime(2026, 12, 6, 1, 10)


def test_the_time_told_is_read_from_the_day_it_was_said_and_only_when_still_to_come() -> None:
    said = [("My mum lands at Gatwick on Friday at 6:40pm", SUNDAY)]
    assert told_time("Remind me to pick up mum from the airport", said, SUNDAY) == (said[0][0], datetime(2026, 12, 11, 18, 40))
    assert told_time("Remind me to call the bank", said, SUNDAY) is None  # shares no word
    weeks_ago = [("My mum lands at Gatwick on Friday at 6:40pm", datetime(2026, 11, 15, 9, 0))]  # that Friday has passed
    assert told_time("Remind me to pick up mum", weeks_ago, SUNDAY) is None
    assert told_time("Remind me to pick up mum", [("Remind me to pick up mum on Friday at 6pm", SUNDAY)], SUNDAY) is None  # a request
    assert told_time("Remind me to pick up mum", [("My mum is visiting on Friday", SUNDAY)], SUNDAY) is None  # no clock


def test_a_lead_time_or_then_after_the_offer_is_the_reminder_s_time() -> None:
    asked = 'When should I remind you to pick up mum? You told me … (Fri 11 Dec 2026, 18:40) — say "an hour before" or a time.'
    assert told_before("an hour before she lands", asked) == {"due": "2026-12-11T18:40", "before": "an hour"}
    assert told_before("30 minutes before", asked) == {"due": "2026-12-11T18:40", "before": "30 minutes"}
    assert told_before("the day before", asked) == {"due": "2026-12-11T18:40", "before": "1 day"}
    assert told_before("then", asked) == {"due": "2026-12-11T18:40"}
    assert told_before("an hour before", "When should I remind you to pick up mum?") is None  # nothing offered
    assert told_before("whenever", asked) is None


def test_a_reminder_with_no_time_offers_a_flight_said_weeks_before_and_the_reply_sets_it(scripted_runtime) -> None:
    """`mol chat -c`: "Remind me to pick up mum from the airport" after "My mum lands at Gatwick on Friday at 6:40pm" got only
    "When should I remind you to pick up mum?", and "an hour before she lands" set nothing."""
    rt, scripted = scripted_runtime([call("reminders.create", text="order a taxi for my flight to Rome", due="the flight"), "never read"])
    rt.memory.add([new_memory(said_text("My flight to Rome is on 14 January at 7am"), kind="said", said_at="2026-11-10T18:00")])
    session = rt.session()
    asked = session.run_turn("Remind me to order a taxi for my flight to Rome", slot="L0")
    assert asked.answer == ("When should I remind you to order a taxi for my flight to Rome? You told me your flight to Rome is on "
                            '14 January at 7am (Thu 14 Jan 2027, 07:00) — say "an hour before" or a time.')
    assert rt.tool_hub.reminders.list() == []
    set_ = session.run_turn("two hours before", slot="L0")
    assert set_.answer == "Reminder set for Thu 14 Jan 2027, 05:00: order a taxi for my flight to Rome." and scripted.outputs == ["never read"]
    assert [local_due(r["due_at"]) for r in rt.tool_hub.reminders.list()] == ["Thu 14 Jan 2027, 05:00"]
    scripted.outputs = [call("reminders.create", text="water the plants", due="later"), "never read"]
    plain = rt.session().run_turn("Remind me to water the plants", slot="L0")  # nothing told about it: the plain question
    assert plain.answer == "When should I remind you to water the plants?" and NOW < datetime(2027, 1, 14)


def test_how_long_until_a_told_event_is_counted_from_the_time_told(scripted_runtime) -> None:
    """`mol chat -c`: "How long until my dentist appointment?" after "My dentist appointment is on Thursday at 2pm" got
    "Your dentist appointment is on Thursday at 2pm." (no count); weeks later, in a new conversation, the same."""
    from mol_local.turn.told_time import until_answer

    rt, scripted = scripted_runtime(["Your dentist appointment is on Thursday at 2pm."])
    rt.memory.add([new_memory(said_text("My dentist appointment is on Thursday at 2pm"), kind="said", said_at="2026-11-30T10:00")])
    got = rt.session().run_turn("How long until my dentist appointment?", slot="L0")
    assert got.answer == ('1 day, 17 hours — your dentist appointment is on Thu 3 Dec 2026, 14:00 (from what you told me: '
                          '"My dentist appointment is on Thursday at 2pm").')
    assert until_answer("How long until my flight?", [], [], NOW) is None  # nothing told about it
    assert until_answer("How long does the bus take?", [], [], NOW) is None  # no "until"
