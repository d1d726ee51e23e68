"""A countdown to a day (mol_local/genui/countdown.py): `mol chat "Make a countdown to Christmas"` drew a one-hour Timer
labelled "Chores"."""

from __future__ import annotations

from datetime import datetime

from mol_local.genui.countdown import countdown_document
from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground
from mol_local.genui.text import clock

NOW = datetime(2026, 12, 5, 16, 0)


def test_a_countdown_to_a_day_is_a_timer_of_the_time_left_until_it_begins() -> None:
    made = countdown_document("Make a countdown to Christmas", NOW)
    assert made is not None
    doc, fix = made
    assert doc.title == "Countdown to Christmas" and doc.components[0]["label"] == "Christmas"
    assert doc.state["seconds"] == 19 * 86400 + 8 * 3600 and fix == "a countdown to Friday 25 December 2026: 1670400 s from now"
    (later, _) = countdown_document("countdown until 14 February 2027", NOW)  # type: ignore[misc]
    assert later.components[0]["label"] == "14 February 2027"
    assert countdown_document("Make a countdown to my exam", NOW) is None  # no day named: the model's
    assert countdown_document("Set a 10 minute countdown", NOW) is None
    assert countdown_document("countdown to Christmas", datetime(2026, 12, 26, 9, 0))[0].state["seconds"] > 360 * 86400  # type: ignore[index]  (next year's)


def test_the_drawn_timer_becomes_the_countdown_and_shows_its_days() -> None:
    drawn = parse_document({"catalog": "1", "title": "Chores", "components": [
        {"id": "countdown", "type": "Timer", "label": "Chores", "bind": "seconds", "seconds": 3600}], "state": {"seconds": 3600}, "actions": {}})
    assert ground(drawn, "Make a countdown to Christmas", now=NOW)[0].startswith("a countdown to Friday 25 December 2026")
    assert drawn.title == "Countdown to Christmas" and drawn.state["seconds"] == 1670400
    assert ground(parse_document(drawn.to_json()), "Make a countdown to Christmas") == []  # no clock given: left as drawn
    assert clock(1670400) == "19 days 8:00:00" and clock(3600) == "1:00:00" and clock(90000) == "25:00:00" and clock(45) == "0:45"
