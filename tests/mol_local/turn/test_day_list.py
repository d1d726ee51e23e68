"""The reminders of the day asked about (mol_local/turn/day_list.py). `mol chat "What reminders do I have tomorrow?"`
listed every open reminder, today's and the 15th's beside tomorrow's."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.day_list import reminders_on_day

NOW = datetime(2026, 12, 5, 4, 2)  # a Saturday
LISTED = [{"name": "reminders.list", "arguments": {}, "result": (
    "065e48061174 · Sat 5 Dec 2026, 05:02 · stretch\n"
    "66d411ec5e73 · Sun 6 Dec 2026, 12:00 · call the vet\n"
    "4a1b2c3d4e5f · Mon 7 Dec 2026, 08:00 · take out the bins (repeats every Monday)\n"
    "3690b2206cb4 · Tue 15 Dec 2026, 09:00 · pay the credit card")}]


@pytest.mark.parametrize(("request_text", "answer"), [
    ("What reminders do I have tomorrow?", "Your reminders for tomorrow (Sun 6 Dec) (3 others open on other days):\n- call the vet — 12:00"),
    ("What's on for today?", "Your reminders for today (Sat 5 Dec) (3 others open on other days):\n- stretch — 05:02"),
    ("Any reminders on Monday?", "Your reminders for Monday 7 Dec (3 others open on other days):\n"
                                 "- take out the bins (repeats every Monday) — 08:00"),
    ("What do I have on Thursday?", "You have no reminders for Thursday 10 Dec (4 others open on other days)."),
    ("What reminders do I have next week?", "Your reminders for next week (Mon 7 Dec to Sun 13 Dec) (3 others open on other days):\n"
                                            "- take out the bins (repeats every Monday) — Mon 7 Dec 2026, 08:00"),
])
def test_the_day_asked_about_narrows_the_list(request_text: str, answer: str) -> None:
    assert reminders_on_day(request_text, LISTED, NOW) == answer


def test_no_day_named_or_not_a_list_is_left_to_the_list_answer() -> None:
    assert reminders_on_day("What reminders do I have?", LISTED, NOW) is None
    create = [{"name": "reminders.create", "arguments": {}, "result": "Reminder 1 set for Sun 6 Dec 2026, 09:00: x"}]
    assert reminders_on_day("Remind me tomorrow to call mum", create, NOW) is None


def test_the_turn_answers_with_the_days_reminders(scripted_runtime) -> None:
    """Through a real turn: the model answers in words, the list the request settles is read, then narrowed to tomorrow."""
    from tests.mol_local.conftest import NOW as CLOCK

    rt, _scripted = scripted_runtime(["You have a few reminders.", "You have a few reminders."])
    rt.tool_hub.reminders.clock = lambda: CLOCK
    rt.tool_hub.reminders.create("call the vet", "tomorrow at noon")
    rt.tool_hub.reminders.create("pay the credit card", "in 10 days")
    result = rt.session().run_turn("What reminders do I have tomorrow?")
    assert result.answer.startswith("Your reminders for tomorrow (Wed 2 Dec) (1 other open on other days):")
    assert result.answer.endswith("- call the vet — 12:00")


def test_what_a_day_looks_like_is_its_reminders() -> None:
    """`mol chat -c`: "What's my day look like on Friday?" got "- remember that on Friday" twice; "How many reminders do
    I have?" got "You haven't told me any reminders yet" with two open."""
    from mol_local.turn.ground import asks_to_see_reminders

    for asked in ("What's my day look like on Friday?", "What does my Friday look like?", "What's on Friday?",
                  "How many reminders do I have?", "What's my week looking like?"):
        assert asks_to_see_reminders(asked), asked
    for other in ("What does a good day look like?", "What's on TV tonight?"):
        assert not asks_to_see_reminders(other), other
    assert reminders_on_day("What does my Friday look like?", LISTED, NOW) == "You have no reminders for Friday 11 Dec (4 others open on other days)."
    assert reminders_on_day("What's my week looking like?", LISTED, NOW).startswith("Your reminders for the next 7 days (Sat 5 Dec to Fri 11 Dec)")  # type: ignore[union-attr]
