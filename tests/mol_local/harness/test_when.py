"""Reminder times from the user's words, relative to a fixed now (a Tuesday evening)."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.harness.errors import BadArguments
from mol_local.harness.store import RemindersStore, local_due
from mol_local.harness.when import due_at, human, parse_offset

NOW = datetime(2026, 12, 1, 20, 53)  # Tue 1 Dec 2026, 20:53


@pytest.mark.parametrize(
    ("phrase", "before", "expected"),
    [
        ("tomorrow 9am", None, "Wed 2 Dec 2026, 09:00"),
        ("tomorrow at 9", None, "Wed 2 Dec 2026, 09:00"),
        ("next Monday at 10", None, "Mon 7 Dec 2026, 10:00"),
        ("on Friday at 3pm", None, "Fri 4 Dec 2026, 15:00"),
        ("in 20 minutes", None, "Tue 1 Dec 2026, 21:13"),
        ("tonight at 10", None, "Tue 1 Dec 2026, 22:00"),
        ("Monday", None, "Mon 7 Dec 2026, 09:00"),
        ("December 24 at noon", None, "Thu 24 Dec 2026, 12:00"),
        ("the day after tomorrow at 11am", None, "Thu 3 Dec 2026, 11:00"),
        ("tomorrow at 2pm", "30 minutes", "Wed 2 Dec 2026, 13:30"),
        ("Thursday at 6:45pm", "15 minutes", "Thu 3 Dec 2026, 18:30"),
        ("tomorrow 14:00", "half an hour", "Wed 2 Dec 2026, 13:30"),
        ("2026-12-03T09:30", None, "Thu 3 Dec 2026, 09:30"),
        ("20 minutes for your tea", None, "Tue 1 Dec 2026, 21:13"),  # the purpose copied along with the time
        ("tomorrow at 9 for the dentist", None, "Wed 2 Dec 2026, 09:00"),
        ("next Monday at 10 to call mum", None, "Mon 7 Dec 2026, 10:00"),
        ("in half an hour", None, "Tue 1 Dec 2026, 21:23"),
        ("in an hour and a half", None, "Tue 1 Dec 2026, 22:23"),  # `mol chat`: "not a time I can read"
        ("in 2 and a half hours", None, "Tue 1 Dec 2026, 23:23"),
        ("in a couple of hours", None, "Tue 1 Dec 2026, 22:53"),  # mol chat: "not a time I can read"
        ("the 3pm meeting", "15 minutes", "Wed 2 Dec 2026, 14:45"),  # mol chat: "not a time I can read" (3pm today has passed)
        ("tomorrow at the 10am standup", None, "Wed 2 Dec 2026, 10:00"),
        ("Christmas", None, "Fri 25 Dec 2026, 09:00"),  # mol chat -c: each of these was refused as unreadable
        ("two days before Christmas", None, "Wed 23 Dec 2026, 09:00"),
        ("New Year's Eve at 8pm", None, "Thu 31 Dec 2026, 20:00"),
        ("at the end of the month", None, "Thu 31 Dec 2026, 09:00"),
        ("the end of next month", None, "Sun 31 Jan 2027, 09:00"),
        ("a week before Valentine's day", None, "Sun 7 Feb 2027, 09:00"),
        ("next week", None, "Mon 7 Dec 2026, 09:00"),  # its first working day, not "a week from now"
        ("tomorrow at 2pm", "an hour and a half", "Wed 2 Dec 2026, 12:30"),
        ("tomorrow at half past 8", None, "Wed 2 Dec 2026, 08:30"),  # mol chat: "not a time I can read"
        ("tomorrow at quarter to 6pm", None, "Wed 2 Dec 2026, 17:45"),
        ("quarter past seven tomorrow", None, "Wed 2 Dec 2026, 07:15"),
        ("half past 9 tonight", None, "Tue 1 Dec 2026, 21:30"),  # tonight's, not the morning's
        ("in March", None, "Mon 1 Mar 2027, 09:00"),  # mol chat -c: "renew my passport in March" was set for 5 March (today's day)
        ("in March at 10am", None, "Mon 1 Mar 2027, 10:00"), ("mid-January", None, "Fri 15 Jan 2027, 09:00"),
        ("late February", None, "Wed 24 Feb 2027, 09:00"), ("the end of March", None, "Wed 31 Mar 2027, 09:00"),
        ("end of the month", None, "Thu 31 Dec 2026, 09:00"), ("in May", None, "Sat 1 May 2027, 09:00"),
        ("3rd of March", None, "Wed 3 Mar 2027, 09:00"), ("March 3", None, "Wed 3 Mar 2027, 09:00"),  # a day said: that day
        ("in may", None, "Sat 1 May 2027, 09:00"),  # mol chat: "book the car service in may" was set for 6 May (today's day)
        ("by may at 3pm", None, "Sat 1 May 2027, 15:00"), ("next March", None, "Mon 1 Mar 2027, 09:00"),  # was unreadable
        ("next December", None, "Wed 1 Dec 2027, 09:00"), ("3rd of may", None, "Mon 3 May 2027, 09:00"),
        ("tomorrow at 3", None, "Wed 2 Dec 2026, 15:00"),  # mol chat at 01:43: "call the plumber at 3" was set for 03:00
        ("tomorrow at 4:30", None, "Wed 2 Dec 2026, 16:30"), ("tomorrow at 3 in the morning", None, "Wed 2 Dec 2026, 03:00"),
        ("tomorrow at 3am", None, "Wed 2 Dec 2026, 03:00"), ("tomorrow at 6:45", None, "Wed 2 Dec 2026, 06:45"),  # a morning train
        ("tomorrow at 10", None, "Wed 2 Dec 2026, 10:00"),
        ("this weekend", None, "Sat 5 Dec 2026, 09:00"), ("next weekend", None, "Sat 12 Dec 2026, 09:00"),  # mol chat: unreadable
        ("tomorrow at lunchtime", None, "Wed 2 Dec 2026, 12:00"), ("at bedtime", None, "Tue 1 Dec 2026, 22:00"),
        ("teatime on Friday", None, "Fri 4 Dec 2026, 17:00"), ("tomorrow at lunch", None, "Wed 2 Dec 2026, 12:00"),
        ("Tuesday at 11pm", None, "Tue 1 Dec 2026, 23:00"),  # today's weekday, later today: today (dateparser gave next week's)
        ("next Tuesday at 11pm", None, "Tue 8 Dec 2026, 23:00"), ("Tuesday at 9am", None, "Tue 8 Dec 2026, 09:00"),  # passed: next
    ],
)
def test_natural_phrases_resolve_against_now(phrase: str, before: str | None, expected: str) -> None:
    assert human(due_at(phrase, before, now=NOW)) == expected


@pytest.mark.parametrize(
    ("phrase", "before", "says"),
    [
        ("blorp", None, "not a time I can read"),
        ("whenever I may", None, "not a time I can read"),  # "may" with no month word before it stays a verb
        ("blorp for the tea", None, "not a time I can read"),
        ("", None, "due is empty"),
        ("tonight at 8", None, "has already passed"),
        ("tomorrow 9am", "a while", "is not a length of time"),
    ],
)
def test_unreadable_or_past_times_are_refused_with_the_fix(phrase: str, before: str | None, says: str) -> None:
    with pytest.raises(BadArguments, match=says):
        due_at(phrase, before, now=NOW)


def test_offsets() -> None:
    assert parse_offset("1 hour").total_seconds() == 3600
    assert parse_offset("2 days").days == 2
    assert parse_offset("an hour").total_seconds() == 3600


def test_the_store_counts_from_its_clock_and_says_local_time(tmp_path) -> None:
    from memory.db import open_db

    store = RemindersStore(open_db(tmp_path / "m.db"))
    store.clock = lambda: NOW
    row = store.create("call the dentist", "tomorrow at 9am")
    assert local_due(row["due_at"]) == "Wed 2 Dec 2026, 09:00"
    with pytest.raises(BadArguments, match="before needs a due time"):
        store.create("x", None, before="30 minutes")


def test_a_clock_equal_to_nows_time_of_day_is_kept() -> None:
    """dateparser reports a whole day when the clock it read equals now's; the hour asked for still wins."""
    assert human(due_at("the day after tomorrow at 7am", now=datetime(2026, 12, 1, 7, 0))) == "Thu 3 Dec 2026, 07:00"
    assert human(due_at("tomorrow at 10", now=datetime(2026, 12, 1, 10, 0))) == "Wed 2 Dec 2026, 10:00"
