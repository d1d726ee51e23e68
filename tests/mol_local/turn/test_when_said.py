"""When a reminder goes off, as the request states it (mol_local/turn/when_said.py and the reminder the request
settles, turn/ground.reminder_call / turn/times.with_stated_reminder): a stated wait, no made-up clock time, a reminder
stated without "to", a place no clock can know."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.ground import grounded
from mol_local.turn.read import read_answer
from mol_local.turn.tasks import ToolCall


def create(**arguments) -> ToolCall:
    return ToolCall("reminders.create", arguments, "<tool_call>…</tool_call>")


@pytest.mark.parametrize(("request_text", "written", "wanted"), [
    ("Set a reminder for 10 minutes from now: check the laundry", "on 5 Dec 2026", "in 10 minutes"),  # mol chat: refused as passed
    ("Remind me in a couple of hours to call Jo", "later today", "in a couple of hours"),
    ("Remind me in an hour and a half to take the cake out", "in 1 hour", "in an hour and a half"),
    ("Remind me in 10 minutes to check the oven", "10 minutes from now", "10 minutes from now"),  # the same time: kept
    ("Remind me in 10 minutes and again in an hour", "in 10 minutes", "in 10 minutes"),  # two waits: the model's
    ("Remind me tomorrow at 9 to call the bank", "tomorrow at 9", "tomorrow at 9"),
])
def test_the_wait_a_request_states_is_the_due(request_text: str, written: str, wanted: str) -> None:
    assert grounded(create(text="x", due=written), request_text).arguments["due"] == wanted


@pytest.mark.parametrize(("request_text", "written", "wanted"), [
    ("I need to call the bank tomorrow, can you remind me?", "tomorrow at midnight", "tomorrow"),  # mol chat: set for 00:00
    ("Remind me on Monday to renew my passport", "Monday at 10am", "Monday"),
    ("Remind me on Friday to pay the plumber", "2026-12-11T15:00", "11 December 2026"),
    ("Remind me on 3 June to call Sam", "June 3 at 12:00", "June 3"),  # a date's number is no time of day
    ("Remind me tomorrow at 9 to call", "tomorrow at 9am", "tomorrow at 9am"),  # a time said: the model's
    ("Remind me tomorrow morning to call", "tomorrow at 8am", "tomorrow at 8am"),
    ("Remind me at 5 to leave", "today at 5pm", "today at 5pm"),
])
def test_a_clock_time_nobody_said_is_dropped(request_text: str, written: str, wanted: str) -> None:
    assert grounded(create(text="x", due=written), request_text).arguments["due"] == wanted


@pytest.mark.parametrize(("request_text", "text", "due"), [
    ("Remind me Friday 3pm dentist", "dentist", "Friday 3pm"),  # mol chat -c: set as the last reminder's "pay the credit card"
    ("Remind me about the dentist on Friday at 3pm", "the dentist", "on Friday at 3pm"),
    ("Set an alarm for 7", "alarm", "at 7"),  # mol chat -c: "Set an alarm for 7" at 09:00 today, refused as passed
    ("Remind me in 10 minutes dinner", "dinner", "in 10 minutes"),
    ("Remind me in 10 minutes", None, None),  # no task: asked back, never "minutes" at "in 10"
])
def test_a_reminder_stated_without_to(request_text: str, text: str | None, due: str | None) -> None:
    from mol_local.turn.ground import reminder_call

    call = reminder_call(request_text)
    assert (call.arguments["text"], call.arguments["due"]) == (text, due) if call else text is None


def test_a_due_that_is_no_time_or_a_copied_request_gives_way_to_the_persons() -> None:
    """`mol chat -c`: "Remind me next week to book the dentist" was written due "the dentist" (refused as unreadable)."""
    from mol_local.turn.times import with_stated_reminder

    dentist = with_stated_reminder([create(text="book the dentist", due="the dentist")], "Remind me next week to book the dentist")
    assert dentist[0].arguments == {"text": "book the dentist", "due": "next week"}
    alarm = with_stated_reminder([create(text="Set an alarm for 7", due="on Sat 5 Dec 2026")], "Set an alarm for 7")
    assert alarm[0].arguments == {"text": "alarm", "due": "at 7"}


def test_a_reminder_for_a_place_says_it_can_only_go_off_at_a_time() -> None:
    """`mol chat`: "Remind me to buy milk when I get home" got only "When should I remind you to buy milk?"."""
    call = grounded(create(text="buy milk", due="home"), "Remind me to buy milk when I get home")
    assert call.refused and call.answers
    said = read_answer([{"name": "reminders.create", "arguments": call.arguments, "result": f"Error: {call.refused}"}])
    assert said == "I can only remind you at a time — I can't tell when you get home. When should I remind you to buy milk?"
    plain = grounded(create(text="call Ana", due="soon"), "Remind me to call Ana")
    assert read_answer([{"name": "reminders.create", "arguments": plain.arguments, "result": f"Error: {plain.refused}"}]) == \
        "When should I remind you to call Ana?"


def test_a_lead_time_written_as_the_due_is_the_events_time_less_the_lead() -> None:
    """`mol chat`: "Remind me 15 minutes before my 3pm meeting" was written due "15 minutes before" (refused as passed),
    another time due "the 3pm meeting"."""
    lead = grounded(create(text="my 3pm meeting", due="15 minutes before", before="15 minutes"), "Remind me 15 minutes before my 3pm meeting")
    assert (lead.arguments["due"], lead.arguments["before"]) == ("3pm", "15 minutes")
    day = grounded(create(text="meeting", due="soon"), "Remind me 30 minutes before my 2pm meeting tomorrow")
    assert (day.arguments["due"], day.arguments["before"]) == ("tomorrow 2pm", "30 minutes")
    kept = create(text="meeting", due="tomorrow 1:30pm")  # worked out by the model: a clock of its own stays
    assert grounded(kept, "remind me 30 minutes before my 2pm meeting tomorrow").arguments["due"] == "tomorrow 1:30pm"
    from mol_local.turn.times import grounded_calls

    for written in ("15 minutes before", "the 3pm meeting"):  # both seen; the second is read by its time words (harness/when.py)
        calls = grounded_calls([create(text="my 3pm meeting", due=written, before="15 minutes")],
                               "Remind me 15 minutes before my 3pm meeting", [], lambda: [])
        assert [c.arguments["due"] for c in calls] == ["3pm" if written.startswith("15") else written]


def test_a_reminder_stated_whole_is_set_when_the_model_answers_in_words(scripted_runtime) -> None:
    """`mol chat -c`, in a conversation about Leo: "Remind me about Leo's football practice every Saturday at 9am" got
    "I don't know your son Leo yet — tell me and I'll remember it." and nothing was set."""
    rt, scripted = scripted_runtime(["I don't know your son Leo yet — tell me and I'll remember it."])
    result = rt.session().run_turn("Remind me about Leo's football practice every Saturday at 9am", slot="L0")
    assert result.answer.startswith("Reminder set for Sat ") and result.answer.endswith("09:00: Leo's football practice (repeats every Saturday).")
    assert [r["text"] for r in rt.tool_hub.reminders.list()] == ["Leo's football practice"]


def test_a_due_nothing_can_read_is_the_request_s_own_words_for_when() -> None:
    """`mol chat "Remind me this weekend to clean the gutters"`: due "the gutter where the gutter is" was refused and L0 then
    answered with made-up code; "Remind me at lunchtime to call the vet" was asked when."""
    from mol_local.turn.tasks import ToolCall
    from mol_local.turn.when_said import says_no_time, with_readable_due

    wednesday = datetime(2026, 12, 2, 10, 0)  # "this weekend" is still to come (on a Sunday after 9 it had passed: the suite failed)
    call = ToolCall("reminders.create", {"text": "clean the gutters", "due": "the gutter where the gutter is"}, "")
    assert with_readable_due(call, "Remind me this weekend to clean the gutters", wednesday).arguments["due"] == "this weekend"
    assert with_readable_due(call, "Remind me to clean the gutters", wednesday).arguments["due"] == "the gutter where the gutter is"  # no time said
    fine = ToolCall("reminders.create", {"text": "call the vet", "due": "tomorrow at 9am"}, "")
    assert with_readable_due(fine, "Remind me tomorrow morning to call the vet", wednesday) is fine  # a readable due is the model's
    assert not says_no_time("Remind me at lunchtime to call the vet") and says_no_time("Remind me to buy lunch")
