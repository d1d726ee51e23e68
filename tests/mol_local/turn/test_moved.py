"""A follow-up that moves the reminder just set (mol_local/turn/moved.py): which requests are moves, and to when."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.moved import moved_answer, moved_calls, moved_time

OLD = datetime(2026, 12, 11, 12, 0)  # Friday noon
NOW = datetime(2026, 12, 4, 18, 40)


@pytest.mark.parametrize(("request_text", "new"), [
    ("Actually, make it 3pm instead", datetime(2026, 12, 11, 15, 0)),  # a new time keeps the day
    ("move it to Saturday", datetime(2026, 12, 5, 12, 0)),  # a new day keeps the time
    ("Can you change it to tomorrow at 10am please", datetime(2026, 12, 5, 10, 0)),
    ("make it an hour later", datetime(2026, 12, 11, 13, 0)),
    ("push it back 30 minutes", datetime(2026, 12, 11, 12, 30)),
    ("bring it forward by an hour", datetime(2026, 12, 11, 11, 0)),
    ("make it 4", datetime(2026, 12, 11, 16, 0)),  # the 4 o'clock nearer noon
    ("make it 11", datetime(2026, 12, 11, 11, 0)),
    ("make it 1:30", datetime(2026, 12, 11, 13, 30)),  # `mol chat`: "make it 6:30" after 18:00 had set 06:30
    ("set it for 8:30", datetime(2026, 12, 11, 8, 30)),
    ("move it to the 15th", datetime(2026, 12, 15, 12, 0)),
    ("make it bigger", None), ("Make it a table", None), ("make it smarter", None), ("What is 3pm in Tokyo?", None),
])
def test_which_follow_ups_move_and_to_when(request_text: str, new: datetime | None) -> None:
    assert moved_time(request_text, OLD, NOW) == new


def test_the_calls_set_first_and_cancel_after_and_a_passed_time_only_fails() -> None:
    row = {"id": "r1", "text": "renew my passport", "due_at": OLD.astimezone().isoformat(), "repeat": None}
    made = moved_calls("make it 3pm", row, NOW)
    assert [(c.name, c.arguments) for c in made] == [("reminders.create", {"text": "renew my passport", "due": "2026-12-11T15:00"}),
                                                     ("reminders.cancel", {"id": "r1"})]
    assert [c.name for c in moved_calls("move it to 8am today", row, NOW)] == ["reminders.create"]  # refused by the tool, nothing cancelled
    assert moved_calls("make it 3pm", {**row, "repeat": "weekly"}, NOW) == []  # a repeating one: the model's
    results = [{"name": "reminders.create", "result": "Reminder ab set for Fri 11 Dec 2026, 15:00: renew my passport"},
               {"name": "reminders.cancel", "result": "Cancelled: renew my passport (Thu 10 Dec 2026, 09:00).\nNo reminders are open now."}]
    assert moved_answer(results) == "Moved: renew my passport — now Fri 11 Dec 2026, 15:00."
    assert moved_answer(results[:1]) is None


def test_cancel_that_cancels_the_reminder_just_set() -> None:
    from mol_local.turn.moved import cancel_that

    row = {"id": "r1", "text": "call the bank", "due_at": OLD.astimezone().isoformat(), "repeat": None}
    for said in ("Actually, cancel that", "cancel it please", "Never mind", "no, delete that reminder"):
        assert [(c.name, c.arguments) for c in cancel_that(said, row)] == [("reminders.cancel", {"id": "r1"})], said
    assert cancel_that("Cancel my gym membership", row) == [] and cancel_that("cancel that meeting with Sam", row) == []
