"""Reminders and the times the person named (mol_local/turn/times.py)."""

from __future__ import annotations

import pytest

from mol_local.turn.tasks import ToolCall
from mol_local.turn.times import said_as_set, with_every_time


def create(**arguments) -> ToolCall:
    return ToolCall("reminders.create", arguments, "<tool_call>…</tool_call>")


def test_with_every_time_sets_one_reminder_per_time_asked() -> None:
    request = "Remind me at 8am and 6pm tomorrow to take my medicine"
    first = create(text="take my medicine", due="tomorrow at 8am")  # seen: the embedded L0 set only this one
    got = with_every_time([first], request, [])
    assert [(c.arguments["text"], c.arguments["due"]) for c in got] == \
        [("take my medicine", "tomorrow at 8am"), ("take my medicine", "tomorrow at 6pm")]
    assert all(c.answers for c in got)  # what was set is said back
    three = with_every_time([create(text="drink water", due="tomorrow at 7am")], "Remind me tomorrow at 7am, noon and 9pm to drink water", [])
    assert [c.arguments["due"] for c in three] == ["tomorrow at 7am", "tomorrow at noon", "tomorrow at 9pm"]
    wrong = with_every_time([create(text="take my medicine", due="tomorrow at 9am")], request, [])  # a time not asked goes
    assert [c.arguments["due"] for c in wrong] == ["tomorrow at 8am", "tomorrow at 6pm"]
    both = [create(text="take my medicine", due="tomorrow 08:00"), create(text="take my medicine", due="tomorrow 18:00")]
    assert with_every_time(both, request, []) == both  # already one per time
    made = [{"name": "reminders.create", "arguments": {"due": "tomorrow at 6pm"}, "result": "Reminder 1 set for …"}]
    assert [c.arguments["due"] for c in with_every_time([first], request, made)] == ["tomorrow at 8am"]  # set earlier in the task
    daily = with_every_time([create(text="take my medication", due="every day")],  # mol chat: one, at 09:00
                            "Remind me to take my medication at 8am and 8pm every day", [])
    assert [c.arguments["due"] for c in daily] == ["every day at 8am", "every day at 8pm"]


@pytest.mark.parametrize("request_text", [
    "I have a meeting at 2pm and the dentist at 4pm tomorrow; remind me 30 minutes before each",  # each its own task
    "Remind me tomorrow at 8am to take my medicine",
    "What did I do at 8am and 6pm?",
])
def test_with_every_time_leaves_one_time_or_times_of_different_tasks_to_the_model(request_text: str) -> None:
    calls = [create(text="a meeting", due="tomorrow at 1:30pm")]
    assert with_every_time(calls, request_text, []) == calls


def set_(at: str, text: str) -> dict:
    return {"name": "reminders.create", "arguments": {}, "result": f"Reminder 1c00c0b147c1 set for {at}: {text}"}


def test_a_reminders_time_in_the_answer_names_that_reminder() -> None:
    """Seen with L1: two reminders set right (a meeting 13:30, the dentist 15:30), and the plan said the dentist for both."""
    calls = [set_("Sat 5 Dec 2026, 13:30", "a meeting"), set_("Sat 5 Dec 2026, 15:30", "the dentist")]
    answer = ("Set. You'll get a reminder 30 minutes before each:\n- Sat 5 Dec 2026, 13:30: the dentist (at 4pm)\n"
              "- Sat 5 Dec 2026, 15:30: the dentist (at 4pm)")
    assert said_as_set(answer, calls) == ("Set. You'll get a reminder 30 minutes before each:\n- Sat 5 Dec 2026, 13:30: a meeting\n"
                                          "- Sat 5 Dec 2026, 15:30: the dentist")
    right = "I'll remind you about the meeting on Sat 5 Dec 2026, 13:30 and the dentist on Sat 5 Dec 2026, 15:30."
    assert said_as_set(right, calls) == right  # each time beside its own words: unchanged
    copied = "Reminder b298cda8e07a set for Fri 1 Jan 2027, 09:00: pay rent (repeats every month)"  # L0 copied the tool's id
    assert said_as_set(copied, []) == "Reminder set for Fri 1 Jan 2027, 09:00: pay rent (repeats every month)"
    same_time = [set_("Sat 5 Dec 2026, 13:30", "a meeting"), set_("Sat 5 Dec 2026, 13:30", "call Bo")]
    assert said_as_set("1. Sat 5 Dec 2026, 13:30: the dentist", same_time) == "1. Sat 5 Dec 2026, 13:30: the dentist"  # whose? left alone
    failed = [{"name": "reminders.create", "arguments": {}, "result": "Error: due 'x' is not a time I can read"}]
    assert said_as_set("Done: Sat 5 Dec 2026, 13:30: the dentist", failed) == "Done: Sat 5 Dec 2026, 13:30: the dentist"


def test_each_of_two_events_gets_its_reminder_before_it() -> None:
    from mol_local.turn.times import with_each_event

    request = "I have a haircut at 11am and a call with Sam at 3pm on Monday, remind me an hour before both"
    wrong = [create(text="reminders.create", due="Monday at 10am")]  # seen: routed to L0, one reminder, the tool's name as text
    got = with_each_event(wrong, request, [])
    assert [c.arguments for c in got] == [{"text": "a haircut", "due": "Monday at 11am", "before": "an hour"},
                                          {"text": "a call with Sam", "due": "Monday at 3pm", "before": "an hour"}]
    assert all(c.answers for c in got)
    assert [c.arguments["text"] for c in with_each_event([], request, [])] == ["a haircut", "a call with Sam"]  # none written: asked all the same
    made = [{"name": "reminders.create", "arguments": {}, "result": "Reminder 1 set for …"}]
    assert with_each_event(wrong, request, made) == wrong  # the task's first round set them: not again
    one = "Remind me an hour before the haircut at 11am on Monday"
    assert with_each_event(wrong, one, []) == wrong


def test_a_listed_reminder_line_is_all_the_tools() -> None:
    calls = [set_("Sat 5 Dec 2026, 15:30", "the dentist")]
    assert said_as_set("- Sat 5 Dec 2026, 15:30: the dentist (at 17:00)", calls) == "- Sat 5 Dec 2026, 15:30: the dentist"


@pytest.mark.parametrize(("request_text", "model", "kept"), [
    ("Could you don't let me forget to confirm the flight tomorrow 1pm, thanks", ("test the flight", "tomorrow at 1pm"),
     ("confirm the flight", "tomorrow at 1pm")),  # held-out L0: a word the person never said
    ("I want to be reminded to pick up the dry cleaning tomorrow 07:00", ("pick up the dry cleaning", "tomorrow"),
     ("pick up the dry cleaning", "tomorrow 07:00")),  # held-out L0: 09:00
    ("Can you remind me in 10 minutes to take my medication? And write down that Ana's birthday is on 14 March.",
     ("take my medication", "14 March at 10:00"), ("take my medication", "in 10 minutes")),  # held-out L1: the note's date
    ("Remind me to take the 5pm train tomorrow", ("take the 5pm train", "tomorrow at 5pm"),
     ("take the 5pm train", "tomorrow at 5pm")),  # the person's "tomorrow" names no clock: the model's 5pm stands
    ("Remind me tomorrow at 7am to walk Biscuit", ("walk Biscuit", "tomorrow at 7am"), ("walk Biscuit", "tomorrow at 7am")),
    ("Remind me at 8am and 6pm tomorrow to take my medicine", ("take my medicine", "tomorrow at 8am"),
     ("take my medicine", "tomorrow at 8am")),  # several times: with_every_time's
])
def test_the_reminder_a_request_states_keeps_the_persons_task_and_time(request_text: str, model: tuple, kept: tuple) -> None:
    from mol_local.turn.times import with_stated_reminder

    (got,) = with_stated_reminder([create(text=model[0], due=model[1])], request_text)
    assert (got.arguments["text"], got.arguments["due"]) == kept


def test_the_same_reminder_written_twice_is_still_the_one_stated() -> None:
    """Held-out L1 wrote the reminder twice, both "on 14 March at 13:33" for "in 10 minutes"."""
    from mol_local.turn.times import with_stated_reminder

    request = "Can you remind me in 10 minutes to take my medication? And write down that Ana's birthday is on 14 March."
    twice = [create(text="take my medication", due="on 14 March at 13:33")] * 2
    assert [c.arguments["due"] for c in with_stated_reminder(twice, request)] == ["in 10 minutes", "in 10 minutes"]


@pytest.mark.parametrize(("request_text", "model", "want"), [
    ("Remind me every weekday at 7am to stretch", {"text": "every week", "due": "every week at 7am"},  # L0, mol chat
     {"text": "stretch", "due": "every weekday at 7am"}),
    ("Remind me on the first of every month to pay rent", {"text": "pay rent", "due": "every month"},  # L0: today 09:00
     {"text": "pay rent", "due": "on the first of every month"}),
    ("Remind me every Monday at 9am to take out the bins", {"text": "take out the bins", "due": "every Monday at 9am"},
     {"text": "take out the bins", "due": "every Monday at 9am"}),
])
def test_a_repeat_the_request_states_is_the_reminders(request_text: str, model: dict, want: dict) -> None:
    from mol_local.turn.times import with_stated_reminder

    assert with_stated_reminder([ToolCall("reminders.create", model, "")], request_text)[0].arguments == want


@pytest.mark.parametrize(("request_text", "model", "want"), [
    ("Remind me next Monday morning to submit the report", ("submit the report", "Mon 5 Dec 2026"),  # L0: today
     "next Monday morning"),
    ("Set a reminder for March 3rd to buy a gift for my sister", ("buy a gift for my sister", "March 3rd at 03:45"),
     "March 3rd"),  # L1: the time it was asked, named nowhere in the request
    ("Remind me to take the 5pm train tomorrow", ("take the 5pm train", "Sun 6 Dec 2026 at 5pm"),
     "Sun 6 Dec 2026 at 5pm"),  # the same day, at a time the request names
    ("Remind me on Friday to call mum", ("call mum", "Fri 11 Dec 2026"), "Fri 11 Dec 2026"),  # right as written
])
def test_a_day_the_model_moved_or_a_clock_it_made_up_is_the_persons(request_text: str, model: tuple, want: str) -> None:
    from datetime import datetime

    from mol_local.turn.times import with_stated_reminder

    (got,) = with_stated_reminder([create(text=model[0], due=model[1])], request_text, datetime(2026, 12, 5, 3, 45))
    assert got.arguments["due"] == want


def test_a_count_of_reminders_in_the_answer_is_the_count_set() -> None:
    calls = [set_("Wed 3 Mar 2027, 09:00", "buy a gift for my sister")]
    got = said_as_set("Done — two reminders for March 3:\n- Wed 3 Mar 2027, 09:00: buy a gift for my sister", calls)
    assert got.splitlines()[0] == "Done — one reminder for March 3:"
    two = [*calls, set_("Thu 4 Mar 2027, 09:00", "wrap it")]
    assert said_as_set("Two reminders set.", two) == "Two reminders set."
    assert said_as_set("3 reminders set.", two) == "2 reminders set."


def test_a_reminder_already_set_is_not_set_again_under_another_wording() -> None:
    """L1, "Set a reminder for March 3rd to buy a gift for my sister": two reminders, "March 3rd" and "Wed 3 Mar 2027"."""
    from datetime import datetime

    from mol_local.turn.times import grounded_calls

    request, now = "Set a reminder for March 3rd to buy a gift for my sister", datetime(2026, 12, 5, 3, 45)
    both = [create(text="buy a gift for my sister", due="March 3rd"), create(text="buy a gift for my sister", due="Wed 3 Mar 2027")]
    assert [c.arguments["due"] for c in grounded_calls(both, request, [], lambda: [], now)] == ["March 3rd"]
    made = [{"name": "reminders.create", "arguments": {"text": "buy a gift for my sister", "due": "March 3rd"},
             "result": "Reminder 36b1cd69adbd set for Wed 3 Mar 2027, 09:00: buy a gift for my sister"}]
    assert grounded_calls(both[1:], request, made, lambda: [], now) == []
    other = [create(text="buy a gift for my sister", due="March 4th")]
    assert grounded_calls(other, "Remind me on March 3rd and on March 4th to buy a gift for my sister", made, lambda: [], now) != []


@pytest.mark.parametrize(("request_text", "due", "want"), [
    ("Remind me every Tuesday and Thursday at 6pm to go to the gym", "every Tuesday and Thursday at 6pm",
     ["every Tuesday at 6pm", "every Thursday at 6pm"]),  # mol chat: the tool refused "and Thursday at 6pm"
    ("Remind me every Tuesday and Thursday at 6pm to go to the gym", "every Tuesday at 6pm", ["every Tuesday at 6pm", "every Thursday at 6pm"]),
    ("Remind me on Mondays, Wednesdays and Fridays at 7am to stretch", "at 7am",
     ["every Monday at 7am", "every Wednesday at 7am", "every Friday at 7am"]),
    ("Remind me on Tuesday and Thursday to call Sam", "Tuesday", ["Tuesday", "Thursday"]),  # once each
    ("Remind me every Monday at 9am to take the bins out", "every Monday at 9am", ["every Monday at 9am"]),
])
def test_a_reminder_on_several_weekdays_is_one_per_day(request_text: str, due: str, want: list[str]) -> None:
    from datetime import datetime

    from mol_local.turn.times import grounded_calls

    got = grounded_calls([create(text="go", due=due)], request_text, [], lambda: [], datetime(2026, 12, 5, 12))
    assert [c.arguments["due"] for c in got] == want
    assert len(got) == 1 or all(c.answers for c in got)


def test_a_repeat_written_into_the_text_is_the_dues_alone() -> None:
    """`mol chat "Remind me to stretch every hour"`: set as "stretch every hour", repeating every hour."""
    from datetime import datetime

    from mol_local.turn.times import grounded_calls

    (got,) = grounded_calls([create(text="stretch every hour", due="every hour")], "Remind me to stretch every hour", [], lambda: [],
                            datetime(2026, 12, 5, 12))
    assert got.arguments == {"text": "stretch", "due": "every hour"}
    (kept,) = grounded_calls([create(text="water the plants", due="every Sunday at 10am")], "Remind me to water the plants every Sunday at 10am",
                             [], lambda: [], datetime(2026, 12, 5, 12))
    assert kept.arguments == {"text": "water the plants", "due": "every Sunday at 10am"}
    (bins,) = grounded_calls([create(text="take the bins out every Tuesday evening", due="every Tuesday evening")],
                             "Remind me to take the bins out every Tuesday evening", [], lambda: [], datetime(2026, 12, 5, 12))
    assert bins.arguments["text"] == "take the bins out"  # mol chat -c: "take the bins out evening"


def test_a_reminder_for_a_thing_then_its_time_is_that_thing_not_the_reminder_before() -> None:
    """`mol chat -c` after "Remind me at noon tomorrow to call mum": "Set a reminder for my dentist on 14 January at 3:30pm"
    was set by L1 as "call mum" on 14 January."""
    from datetime import datetime

    from mol_local.turn.ground import reminder_call
    from mol_local.turn.times import grounded_calls

    asked = "Set a reminder for my dentist on 14 January at 3:30pm"
    assert reminder_call(asked).arguments == {"text": "my dentist", "due": "on 14 January at 3:30pm"}  # type: ignore[union-attr]
    assert reminder_call("set a reminder for the vet tomorrow at 10").arguments == {"text": "the vet", "due": "tomorrow at 10"}  # type: ignore[union-attr]
    assert reminder_call("Remind me Friday 3pm dentist").arguments == {"text": "dentist", "due": "Friday 3pm"}  # type: ignore[union-attr]
    (got,) = grounded_calls([create(text="call mum", due="on 14 January at 3:30pm")], asked, [], lambda: [], datetime(2026, 12, 5, 12))
    assert got.arguments["text"] == "my dentist"
    two = grounded_calls([create(text="call mum", due="on 14 January at 3:30pm"), create(text="call my dentist", due="on January 14 at 3:30pm")],
                         asked, [], lambda: [], datetime(2026, 12, 5, 12))  # L1 in the conversation: two, one of them the mum's
    assert [c.arguments["text"] for c in two] == ["my dentist"]


def test_a_reminders_task_loses_the_to_of_remind_me_to() -> None:
    """`mol chat "Remind me every weekday at 7:30 to stretch"`: the list read "to stretch (repeats every weekday)"."""
    from datetime import datetime

    from mol_local.turn.times import grounded_calls

    now = datetime(2026, 12, 5, 16, 0)
    calls = grounded_calls([create(text="to stretch", due="every weekday at 7:30")], "Remind me every weekday at 7:30 to stretch",
                           [], lambda: [], now)
    assert [c.arguments["text"] for c in calls] == ["stretch"]
    kept = grounded_calls([create(text="to do list review", due="tomorrow at 9")], "Remind me tomorrow at 9 about the to do list review",
                          [], lambda: [], now)
    assert kept[0].arguments["text"] == "to do list review"


def test_a_repeating_reminder_said_back_without_its_repeat_is_said_as_set() -> None:
    """`mol chat "Remind me every first Monday of the month at 9am to check the smoke alarms"`: "OK, I set a reminder to
    check the smoke alarms for Mon 7 Dec 2026, 09:00." — the repeat left out."""
    calls = [set_("Mon 7 Dec 2026, 09:00", "check the smoke alarms (repeats on the first Monday of every month)")]
    assert said_as_set("OK, I set a reminder to check the smoke alarms for Mon 7 Dec 2026, 09:00.", calls) == \
        "Reminder set for Mon 7 Dec 2026, 09:00: check the smoke alarms (repeats on the first Monday of every month)."
    said = "Reminder set for Mon 7 Dec 2026, 09:00: check the smoke alarms (repeats on the first Monday of every month)."
    assert said_as_set(said, calls) == said


def test_a_reminder_whose_text_is_only_a_time_goes_beside_one_with_a_task() -> None:
    """`mol chat`: "Remind me to call mum on her birthday, it's on the 3rd of January" set "on the 3rd of January" and
    "call mum", both for 3 January."""
    from mol_local.turn.times import grounded_calls

    asked = "Remind me to call mum on her birthday, it's on the 3rd of January"
    calls = [ToolCall("reminders.create", {"text": "on the 3rd of January", "due": "on January 3"}, ""),
             ToolCall("reminders.create", {"text": "call mum", "due": "on January 3"}, "")]
    assert [c.arguments["text"] for c in grounded_calls(calls, asked, [], tuple)] == ["call mum"]
    alone = [ToolCall("reminders.create", {"text": "Friday", "due": "Friday at 9am"}, "")]
    assert [c.arguments["text"] for c in grounded_calls(alone, "Remind me on Friday at 9am", [], tuple)] == ["Friday"]  # nothing else to keep
