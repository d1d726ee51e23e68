"""A reminder moved, cancelled or done by name (mol_local/turn/rescheduled.py): which reminder, to when, and a name that is not open."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from memory.db import open_db
from mol_local.harness.store import RemindersStore
from mol_local.turn.rescheduled import named_move

NOW = datetime(2026, 12, 4, 18, 40)


@pytest.fixture()
def hub(tmp_path: Path) -> SimpleNamespace:
    store = RemindersStore(open_db(tmp_path / "m.db"))
    store.clock = lambda: NOW
    store.create("go to the dentist", "Tuesday at 2pm")
    store.create("pay the rent", "Wednesday at noon")
    return SimpleNamespace(reminders=store)


def _ids(hub: SimpleNamespace) -> dict[str, str]:
    return {r["text"]: r["id"] for r in hub.reminders.list()}


@pytest.mark.parametrize(("request_text", "text", "due"), [
    ("Move my dentist reminder to 4pm", "go to the dentist", "2026-12-08T16:00"),  # a new clock keeps the day
    ("Can you reschedule the dentist to Thursday please", "go to the dentist", "2026-12-10T14:00"),  # a new day keeps the clock
    ("push the rent reminder back an hour", "pay the rent", "2026-12-09T13:00"),
    ("Move the rent reminder an hour earlier", "pay the rent", "2026-12-09T11:00"),
    ("Snooze the rent reminder by 30 minutes", "pay the rent", "2026-12-09T12:30"),  # seen: a reminder called "Snooze the haircut reminder"
    ("delay my dentist reminder 15 minutes", "go to the dentist", "2026-12-08T14:15"),
    ("Push the rent back to Thursday", "pay the rent", "2026-12-10T12:00"),  # mol chat -c: "back" read as an offset "to Monday"
])
def test_the_named_reminder_is_set_again_and_the_old_one_cancelled(hub: SimpleNamespace, request_text: str, text: str, due: str) -> None:
    made = named_move(request_text, hub, NOW)
    assert [(c.name, c.arguments) for c in made] == [("reminders.create", {"text": text, "due": due}),
                                                     ("reminders.cancel", {"id": _ids(hub)[text]})]
    assert not any(c.refused for c in made)


def test_a_reminder_named_but_not_open_moves_nothing_and_says_so(hub: SimpleNamespace) -> None:
    made = named_move("Move my gym reminder to Friday", hub, NOW)
    assert len(made) == 1 and made[0].refused and "no open reminder is about gym" in made[0].refused
    assert len(hub.reminders.list()) == 2


@pytest.mark.parametrize("request_text", [
    "Move the sofa to the left",  # names no reminder and says none: the model's
    "Change my name to Bob",
    "Move my dentist reminder somewhere nice",  # names no time
    "What reminders do I have?",
])
def test_other_requests_are_not_moves(hub: SimpleNamespace, request_text: str) -> None:
    assert named_move(request_text, hub, NOW) == []
    assert named_move("Move my dentist reminder to 4pm", None, NOW) == []


def test_a_reminder_named_to_delete_is_cancelled_and_two_alike_are_not_guessed(hub: SimpleNamespace) -> None:
    """`mol chat -c "Delete the bank reminder"`: L0 answered "Remove the bank reminder from the list." and called nothing."""
    from mol_local.turn.rescheduled import named_cancel

    made = named_cancel("Delete the dentist reminder", hub)
    assert [(c.name, c.arguments, c.refused) for c in made] == [("reminders.cancel", {"id": _ids(hub)["go to the dentist"]}, None)]
    about = named_cancel("Cancel the reminder about the rent", hub)
    assert [(c.name, c.arguments) for c in about] == [("reminders.cancel", {"id": _ids(hub)["pay the rent"]})]
    stop = named_cancel("Stop reminding me about the rent", hub)  # `mol chat`: "When should I remind you to stop?"
    assert [(c.name, c.arguments) for c in stop] == [("reminders.cancel", {"id": _ids(hub)["pay the rent"]})]
    assert [c.arguments for c in named_cancel("Don't remind me to pay the rent anymore", hub)] == [{"id": _ids(hub)["pay the rent"]}]
    hub.reminders.create("go to the dentist", "Friday at 9am")
    two = named_cancel("Cancel my dentist reminder please", hub)
    assert len(two) == 1 and two[0].refused and two[0].refused.startswith("not run: 2 open reminders are about dentist")
    none = named_cancel("Remove the gym reminder", hub)
    assert none[0].refused and "no open reminder is about gym" in none[0].refused
    assert named_cancel("Delete the last paragraph", hub) == [] and named_cancel("Delete the dentist reminder", None) == []


def test_also_remind_me_before_that_is_the_newest_reminder_again_earlier() -> None:
    """`mol chat -c`: "Also remind me 30 minutes before that" set the 10:00 bank reminder again at 10:00."""
    from mol_local.turn.moved import before_that

    latest = {"id": "r1", "text": "call the bank", "due_at": datetime(2026, 12, 6, 10, 0).astimezone().isoformat()}
    made = before_that("Also remind me 30 minutes before that", latest)
    assert [(c.name, c.arguments) for c in made] == [("reminders.create", {"text": "call the bank", "due": "2026-12-06T10:00",
                                                                           "before": "30 minutes"})]
    assert before_that("remind me to call mum", latest) == [] and before_that("Also remind me an hour before that", None) == []


def test_cancel_all_my_reminders_cancels_each_open_one_and_with_none_says_so(hub: SimpleNamespace) -> None:
    """`mol chat`: "Cancel all my reminders" got "The request failed to run, so let's examine the details …" and kept them all."""
    from mol_local.turn.rescheduled import named_cancel

    made = named_cancel("Cancel all my reminders", hub)
    assert sorted(c.arguments["id"] for c in made) == sorted(_ids(hub).values()) and not any(c.refused for c in made)
    assert [c.name for c in named_cancel("clear my reminders please", hub)] == ["reminders.cancel"] * 2
    for row in hub.reminders.list():
        hub.reminders.cancel(row["id"])
    none = named_cancel("Delete all of my reminders", hub)
    assert len(none) == 1 and none[0].refused == "not run: there are no open reminders to cancel"


@pytest.mark.parametrize(("request_text", "text"), [
    ("I finished the dentist one", "go to the dentist"),  # seen: "Congratulations on completing the dentist one!"
    ("Ok, I've paid the rent.", "pay the rent"),
    ("just did the dentist", "go to the dentist"),
    ("I already went to the dentist, tick that off", "go to the dentist"),
])
def test_saying_a_named_reminder_is_done_ticks_it_off(hub: SimpleNamespace, request_text: str, text: str) -> None:
    from mol_local.turn.rescheduled import named_done

    assert [(c.name, c.arguments) for c in named_done(request_text, hub)] == [("reminders.complete", {"id": _ids(hub)[text]})]


@pytest.mark.parametrize("request_text", [
    "I finished the book",  # names no open reminder
    "Did I pay the rent?",  # asks
    "I finished the dentist one, remind me to book the next one in March",  # also asks for a reminder: the model's
    "What did I finish?",
    "I talked to my landlord about the rent",  # names the rent, but talking is not paying it
    "I moved the rent money to savings",
])
def test_other_statements_tick_nothing_off(hub: SimpleNamespace, request_text: str) -> None:
    from mol_local.turn.rescheduled import named_done

    assert named_done(request_text, hub) == []
