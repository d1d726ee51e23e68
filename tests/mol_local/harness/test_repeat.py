"""Reminders that repeat (mol_local/harness/repeat.py): "every Monday at 9am" is one open reminder at a time, and
ticking it off opens the next, in the same transaction. Tried with mol chat, the tool had refused the phrase."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from mol_local.harness.hub import ToolHub
from mol_local.harness.repeat import first_due, next_due, split_repeat, with_repeat
from mol_local.harness.when import parse_when
from tests.mol_local.harness.conftest import call

NOW = datetime(2026, 12, 4, 18, 30)  # a Friday evening


@pytest.mark.parametrize(("due", "first", "rule"), [
    ("every Monday at 9am", datetime(2026, 12, 7, 9, 0), "weekly"),
    ("every day at 8", datetime(2026, 12, 5, 8, 0), "daily"),  # 8:00 has passed today
    ("daily at 10pm", datetime(2026, 12, 4, 22, 0), "daily"),
    ("every morning", datetime(2026, 12, 5, 8, 0), "daily"),
    ("every evening at 8", datetime(2026, 12, 4, 20, 0), "daily"),  # the evening's 8
    ("every weekday at 7:30", datetime(2026, 12, 7, 7, 30), "weekdays"),  # Saturday is no weekday
    ("every week on Friday at 5pm", datetime(2026, 12, 11, 17, 0), "weekly"),  # today's 17:00 has passed
    ("monthly on the 1st at 9", datetime(2027, 1, 1, 9, 0), "monthly"),
    ("on the first of every month", datetime(2027, 1, 1, 9, 0), "monthly"),  # mol chat: set for today 09:00
    ("the 15th of each month at 10am", datetime(2026, 12, 15, 10, 0), "monthly"),
    ("every other day at 8pm", datetime(2026, 12, 4, 20, 0), "days:2"),  # mol chat: "not a time I can read"
    ("every 2 weeks on Friday at 5pm", datetime(2026, 12, 11, 17, 0), "days:14"),  # the next Friday, then two weeks on
    ("fortnightly", datetime(2026, 12, 5, 9, 0), "days:14"),  # the next 09:00
    ("on weekdays at 7am", datetime(2026, 12, 7, 7, 0), "weekdays"),  # mol chat: set once, for a Sunday
    ("on Mondays at 9", datetime(2026, 12, 7, 9, 0), "weekly"),
    ("every other Wednesday at 7am", datetime(2026, 12, 9, 7, 0), "days:14"),  # mol chat: set once
    ("every first Monday of the month at 9am", datetime(2026, 12, 7, 9, 0), "nth:1:0"),  # mol chat: set once
    ("every month on the first Monday at 9am", datetime(2026, 12, 7, 9, 0), "nth:1:0"),
    ("on the last Friday of every month at 5pm", datetime(2026, 12, 25, 17, 0), "nth:-1:4"),
    ("the first Friday of the month at 5pm", datetime(2027, 1, 1, 17, 0), "nth:1:4"),  # this month's (4 Dec, 17:00) has passed
    ("every hour from 9 to 5 on weekdays", datetime(2026, 12, 7, 9, 0), "minutes:60:9-17:weekdays"),  # mol chat: once a weekday
    ("every 2 hours between 8am and 8pm", datetime(2026, 12, 4, 20, 0), "minutes:120:8-20"),  # 18:30 now: 20:00 is next
])
def test_the_first_time_and_the_rule(due: str, first: datetime, rule: str) -> None:
    from mol_local.harness.repeat import monthly_phrase, on_day_of_month

    phrase, got = split_repeat(due)
    phrase, day = monthly_phrase(phrase, NOW) if got == "monthly" else (phrase, None)
    when = parse_when(phrase, now=NOW)
    assert (first_due(on_day_of_month(when, day) if day else when, got, NOW), got) == (first, rule)  # type: ignore[arg-type]


def test_the_next_time() -> None:
    friday = datetime(2026, 12, 4, 7, 30)
    assert next_due(friday, "weekdays") == datetime(2026, 12, 7, 7, 30)
    assert next_due(datetime(2027, 1, 31, 9), "monthly") == datetime(2027, 2, 28, 9)  # a shorter month: its last day
    assert next_due(datetime(2026, 12, 31, 9), "monthly") == datetime(2027, 1, 31, 9)
    assert split_repeat("tomorrow 9am") == ("tomorrow 9am", None)
    assert next_due(datetime(2026, 12, 4, 20), "days:2") == datetime(2026, 12, 6, 20)


def test_the_nth_weekday_of_every_month_is_set_said_back_and_comes_back_on_that_weekday(harness, hub: ToolHub) -> None:
    from mol_local.harness.repeat import said

    assert next_due(datetime(2026, 12, 7, 9), "nth:1:0") == datetime(2027, 1, 4, 9)  # the first Monday of January
    assert next_due(datetime(2027, 1, 29, 17), "nth:-1:4") == datetime(2027, 2, 26, 17)
    assert said("nth:-1:4", datetime(2027, 1, 29, 17)) == "on the last Friday of every month"
    text, status = call(harness, "reminders.create", {"text": "check the smoke alarms", "due": "every first Monday of the month at 9am"})
    assert status == "ok" and text.endswith(": check the smoke alarms (repeats on the first Monday of every month)")
    (row,) = hub.reminders.list()
    call(harness, "reminders.complete", {"id": row["id"]})
    (following,) = hub.reminders.list()
    due = datetime.fromisoformat(following["due_at"]).astimezone()
    assert due.weekday() == 0 and due.day <= 7 and due > datetime.fromisoformat(row["due_at"]).astimezone()


def test_every_other_day_is_set_and_said_back(harness, hub: ToolHub) -> None:
    text, status = call(harness, "reminders.create", {"text": "water the plants", "due": "every other day at 8pm"})
    assert status == "ok" and text.endswith(": water the plants (repeats every other day)")
    (row,) = hub.reminders.list()
    assert row["repeat"] == "days:2"
    call(harness, "reminders.complete", {"id": row["id"]})
    (following,) = hub.reminders.list()
    assert (datetime.fromisoformat(following["due_at"]) - datetime.fromisoformat(row["due_at"])).days == 2
    assert with_repeat("at 8pm", "Remind me every other day at 8pm to water the plants") == "every other day at 8pm"


def test_every_two_hours_is_set_from_now_and_said_back(harness, hub: ToolHub) -> None:
    """`mol chat "Remind me to drink water every 2 hours"`: refused, then set once as "drink water every"."""
    before = datetime.now()
    text, status = call(harness, "reminders.create", {"text": "drink water", "due": "every 2 hours"})
    assert status == "ok" and text.endswith(": drink water (repeats every 2 hours)")
    (row,) = hub.reminders.list()
    first = datetime.fromisoformat(row["due_at"]).astimezone().replace(tzinfo=None)
    assert row["repeat"] == "minutes:120" and 119 <= (first - before).total_seconds() / 60 <= 121
    call(harness, "reminders.complete", {"id": row["id"]})
    (following,) = hub.reminders.list()
    assert datetime.fromisoformat(following["due_at"]) - datetime.fromisoformat(row["due_at"]) == timedelta(hours=2)
    assert with_repeat("2 hours", "Remind me to drink water every 2 hours") == "every 2 hours"
    too_often, status = call(harness, "reminders.create", {"text": "blink", "due": "every 5 minutes"})
    assert status != "ok" and "every 5 minutes is too often for a reminder — use 15 minutes or more" in too_often


def test_the_requests_every_is_kept_when_the_model_drops_it() -> None:
    assert with_repeat("at 8am", "Remind me to take my pills every day at 8am") == "every day at 8am"
    assert with_repeat("Monday at 9am", "Remind me every Monday at 9am to take out the bins") == "every Monday at 9am"
    assert with_repeat("tomorrow 9am", "Remind me to call mum tomorrow at 9") == "tomorrow 9am"  # no "every"
    assert with_repeat("Monday 9am", "every Monday and every Friday remind me") == "Monday 9am"  # two: the model's
    assert with_repeat("at 7am", "Remind me on weekdays at 7am to go for a run") == "on weekdays at 7am"
    assert with_repeat("Monday at 9", "Remind me on Monday at 9 to call the bank") == "Monday at 9"  # one Monday


def test_a_repeating_reminder_is_set_listed_and_opens_the_next_when_ticked_off(harness, hub: ToolHub) -> None:
    text, status = call(harness, "reminders.create", {"text": "take out the bins", "due": "every Monday at 9am"})
    assert status == "ok" and text.endswith(": take out the bins (repeats every Monday)")
    first = hub.reminders.list()[0]
    assert first["repeat"] == "weekly" and datetime.fromisoformat(first["due_at"]).astimezone().strftime("%A %H:%M") == "Monday 09:00"
    assert call(harness, "reminders.list")[0].endswith("take out the bins (repeats every Monday)")
    done, _ = call(harness, "reminders.complete", {"id": first["id"]})
    (following,) = hub.reminders.list()
    gap = datetime.fromisoformat(following["due_at"]) - datetime.fromisoformat(first["due_at"])
    assert gap.days == 7 and following["repeat"] == "weekly" and following["id"] != first["id"]
    assert done.startswith("Done: take out the bins. Next time: ") and done.endswith("Nothing else is open.")
    assert call(harness, "reminders.complete", {"id": first["id"]})[0].startswith("Done: take out the bins.")
    assert len(hub.reminders.list()) == 1  # ticked off twice: one next occurrence, not two


def test_a_repeat_we_cannot_read_is_refused_with_the_fix(harness, hub: ToolHub) -> None:
    text, status = call(harness, "reminders.create", {"text": "water the plants", "due": "every fortnight-ish"})
    assert status == "bad_arguments" and "not a time I can read" in text and hub.reminders.list() == []


def test_an_hourly_window_steps_within_its_hours_and_skips_the_weekend() -> None:
    """`mol chat "Remind me to stretch every hour from 9 to 5 on weekdays"` was set once a weekday at 9:00 and said so."""
    from mol_local.harness.repeat import repeats_in, said

    rule = "minutes:60:9-17:weekdays"
    friday_five = datetime(2026, 12, 4, 17, 0)
    assert next_due(datetime(2026, 12, 4, 16, 0), rule) == friday_five
    assert next_due(friday_five, rule) == datetime(2026, 12, 7, 9, 0)  # past 17:00 on a Friday: Monday's first
    assert next_due(datetime(2026, 12, 5, 19, 0), "minutes:120:8-20") == datetime(2026, 12, 6, 8, 0)  # no weekdays: Sunday
    assert said(rule, friday_five) == "every hour from 9:00 to 17:00 on weekdays"
    asked = "Remind me to stretch every hour from 9 to 5 on weekdays"
    assert repeats_in(asked) == "every hour from 9 to 5 on weekdays"
    assert with_repeat("on weekdays", asked) == "every hour from 9 to 5 on weekdays"  # the model kept the days alone
    assert split_repeat("every hour from 11pm to 2am")[1] == "minutes:60"  # no window that reads: hourly, and the rest is refused
