"""The time in another city (mol_local/turn/zones.py), computed from the conversation's clock."""

from __future__ import annotations

from datetime import datetime

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.zones import zone_code
from tests.mol_local.turn.test_dates import _run

NOW = datetime(2026, 12, 5, 8, 6)


def _answer(question: str) -> str:
    call = computed_call(question, NOW.date(), NOW)
    assert call is not None and call.name == "python"
    return computed_answer(call.arguments["code"], _run(call.arguments["code"]))


def test_the_time_in_a_city_is_its_zones_time_now() -> None:
    """`mol chat "What's the time in Tokyo?"` got "The time in Tokyo is 5 Dec 2026, 08:06." — the local time."""
    here = NOW.astimezone()
    tokyo = here.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    assert _answer("What's the time in Tokyo?") == f"In Tokyo it's {tokyo:%H:%M} on {tokyo:%A} {tokyo.day} {tokyo:%B} (JST, UTC+0900; here it is 08:06)."
    assert _answer("what time is it in new york right now").startswith("In New York it's ")


@pytest.mark.parametrize("question", ["What time is it in Kyoto?", "What time is it?", "What's the time in Mars?",
                                      "What time is it in Tokyo and should I call?"])
def test_a_place_with_no_zone_or_another_question_is_not_this(question: str) -> None:
    assert zone_code(question, NOW) is None
