"""A day planned around the times given (mol_local/turn/day_plan.py): the person's times kept, the rest placed in the
gaps by the code the sandbox runs, what does not fit named, and other requests left alone."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.day_plan import plan_code
from tests.mol_local.turn.test_dates import _run

SATURDAY = datetime(2026, 12, 5, 7, 40)


def _plan(request: str, now: datetime = SATURDAY) -> list[str]:
    call = computed_call(request, now.date(), now)
    assert call is not None and call.name == "python"
    return computed_answer(call.arguments["code"], _run(call.arguments["code"])).splitlines()


def test_the_times_given_stay_and_the_hours_needed_go_in_the_first_gap() -> None:
    """`mol chat`: L1 answered this with "9:00 in the gym; 1 hour before your start date …" and a packing list."""
    lines = _plan("Plan my Saturday: gym at 9, lunch with Sam at 1, and I need 2 hours for groceries and cleaning")
    assert lines[:4] == ["Your plan for today, Saturday 5 December:", "- 09:00–10:00 gym", "- 10:00–12:00 groceries and cleaning",
                         "- 13:00–14:00 lunch with Sam"]  # "at 1" is the afternoon; "my Saturday" on a Saturday is today
    assert lines[-1].startswith("(An hour for each thing you gave no length for")


def test_another_day_starts_at_eight_and_a_half_hour_fits_before_the_first_time() -> None:
    lines = _plan("Plan my Monday: standup at 9:30, 2 hours for emails, half an hour to walk the dog")
    assert lines[:4] == ["Your plan for Monday 7 December:", "- 08:00–08:30 walk the dog", "- 09:30–10:30 standup", "- 10:30–12:30 emails"]
    tomorrow = _plan("Help me plan my day tomorrow: dentist at 10am, call with Anna at 3pm, and 3 hours for the report")
    assert tomorrow[:4] == ["Your plan for Sunday 6 December:", "- 10:00–11:00 dentist", "- 11:00–14:00 report", "- 15:00–16:00 call with Anna"]


def test_a_bare_hour_before_something_earlier_is_the_morning() -> None:
    """`mol chat -c`: "Plan my Wednesday: gym at 7, interview at 2pm, dinner with Sam at 7pm" put the gym at 19:00."""
    lines = _plan("Plan my Wednesday: gym at 7, interview at 2pm, dinner with Sam at 7pm")
    assert lines[1:4] == ["- 07:00–08:00 gym", "- 14:00–15:00 interview", "- 19:00–20:00 dinner with Sam"]
    assert _plan("Plan my Monday: lunch at 1, call at 5")[1:3] == ["- 13:00–14:00 lunch", "- 17:00–18:00 call"]  # in order: afternoon


def test_a_weekday_named_late_on_that_day_with_every_time_gone_is_next_weeks() -> None:
    """`mol chat -c` at 23:00 on a Saturday: "Plan my Saturday: swim at 9, …" was today's plan, every time past."""
    late = _plan("Plan my Saturday: swim at 9, lunch with Alex at 1, cinema at 7", SATURDAY.replace(hour=23))
    assert late[:4] == ["Your plan for Saturday 12 December:", "- 09:00–10:00 swim", "- 13:00–14:00 lunch with Alex", "- 19:00–20:00 cinema"]
    assert _plan("Plan my day: swim at 9", SATURDAY.replace(hour=23))[0].startswith("Your plan for today")  # "my day": today, as asked


def test_today_starts_no_earlier_than_now_and_what_does_not_fit_is_named() -> None:
    late = datetime(2026, 12, 5, 18, 5)
    lines = _plan("Plan my day: dinner at 7pm, 3 hours for the report, an hour for the gym", late)
    assert lines[1:4] == ["- 19:00–20:00 dinner", "- 20:00–21:00 gym", "No room left for: report."]  # 18:15–19:00 is too short


@pytest.mark.parametrize("request_text", [
    "Plan my Saturday",  # no timed item: the model's
    "Plan my trip to Rome: flight at 9",  # not a day
    "Plan my day: gym at 9 and remind me 30 minutes before",  # a reminder asked as well
    "Plan my Sunday: gym at 9 and save it in my notes",  # plan_note's
    "Plan my day: gym at 25:00",
    "What should I do on Saturday? gym at 9",
])
def test_other_requests_are_not_day_plans(request_text: str) -> None:
    assert plan_code(request_text, SATURDAY) is None


def test_a_thing_named_with_no_time_or_length_gets_an_hour_in_the_first_gap() -> None:
    """`mol chat`: "Plan my Saturday: gym at 9, lunch with Sam at 1, and I need to buy groceries" left the groceries out."""
    lines = _plan("Plan my Saturday: gym at 9, lunch with Sam at 1, and I need to buy groceries")
    assert lines[1:4] == ["- 08:00–09:00 buy groceries", "- 09:00–10:00 gym", "- 13:00–14:00 lunch with Sam"]
    both = _plan("Plan my Monday: dentist at 10am, 2 hours for the report, call mum and do the laundry")
    assert both[1:5] == ["- 08:00–10:00 report", "- 10:00–11:00 dentist", "- 11:00–12:00 call mum", "- 12:00–13:00 do the laundry"]
    assert _plan("Plan my Monday: gym at 9, it's going to be busy")[1:] == [
        "- 09:00–10:00 gym", "", "(An hour for each thing you gave no length for; tell me if one runs longer and I will move the rest.)"]
