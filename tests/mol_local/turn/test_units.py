"""Unit conversions the request settles (mol_local/turn/units.py): read only when the request is nothing else,
computed by the code it returns; the answer names the units in the person's words."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.units import unit_code
from tests.mol_local.turn.test_dates import TODAY, _run


@pytest.mark.parametrize(("question", "answer"), [
    ("Convert 5 miles to kilometres", "5 miles is 8.05 kilometres."),  # mol chat: "10 miles (30 km) are … 5 kilometres."
    ("what is 100 F in C?", "100 F is 37.78 °C."),
    ("20 celsius to fahrenheit", "20 celsius is 68 °F."),
    ("how many feet in 3 metres", "3 metres is 9.84 feet."),
    ("how many cm is 6 feet?", "6 feet is 182.88 cm."),
    ("Convert 70 kg to pounds please", "70 kg is 154.32 pounds."),
    ("10 stone in kg", "10 stone is 63.5 kg."),
    ("5 gallons to litres", "5 US gallons is 18.93 litres."),  # said: an imperial gallon is another size
    ("5 imperial gallons to litres", "5 imperial gallons is 22.73 litres."),
    ("30 mph in km/h", "30 mph is 48.28 km/h."),
    ("what's 1,500 g in kg", "1,500 g is 1.5 kg."),
    ("Convert 2 mm to miles", "2 mm is 1.24e-06 miles."),
    ("How many minutes are in a week?", "A week has 10080 minutes."),  # mol chat: "A week has 7 days."
    ("how many seconds in a day", "A day has 86400 seconds."),
    ("How many feet are in 3 miles?", "3 miles is 15840 feet."),
    ("Convert 90 minutes to hours", "90 minutes is 1.5 hours."),
    ("How many hours are there in a year?", "A year has 8760 hours (a year of 365 days)."),
])
def test_a_conversion_is_computed(question: str, answer: str) -> None:
    source = unit_code(question)
    assert source is not None, question
    assert computed_answer(source, _run(source)) == answer


@pytest.mark.parametrize("question", [
    "convert 5 miles to kg",  # two kinds of unit
    "Convert my recipe to vegan", "5 miles to miles", "How far is 5 miles from London in km?",
    "Write a Python function that converts miles to km", "what is 20 C in C", "How many days until Christmas?",
    "How many weeks are in the school term?",
])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert unit_code(question) is None


def test_arithmetic_and_calendar_come_first() -> None:
    assert computed_call("What is 12 * 3?", TODAY).arguments["code"].startswith("# 12 * 3\n")  # type: ignore[union-attr]
    assert computed_call("Convert 5 miles to km", TODAY).arguments["code"].startswith("# answer: 5 miles is")  # type: ignore[union-attr]
    assert computed_call("Convert my recipe to vegan", TODAY) is None


def test_a_currency_is_converted_only_at_a_rate_the_person_gives() -> None:
    """Offline there are no exchange rates: L0 answered "How much is 250 euros in dollars?" with "250 euros in dollars
    is 184 euros."; with a rate it is arithmetic."""
    from mol_local.turn.units import currency_code, no_rate_answer

    source = currency_code("convert 250 euros to dollars at 1.08")
    assert source is not None and computed_answer(source, _run(source)) == "250 euros is 270.00 dollars at 1.08."
    asked = "How much is 250 euros in dollars?"
    assert currency_code(asked) is None
    assert no_rate_answer(asked, "250 euros in dollars is 184 euros.").startswith(  # type: ignore[union-attr]
        "I can't convert 250 euros to dollars: I work offline and have no exchange rates.")
    assert no_rate_answer(asked, "I can't look that up, sorry.") is None  # no made-up number: the model's words stand
    assert no_rate_answer("Convert 5 miles to km", "8 km") is None
    assert no_rate_answer("How much is 250 euros in pounds?", "250 euros in pounds is 134.").startswith(  # type: ignore[union-attr]
        "I can't convert 250 euros to pounds")  # mol chat: "pounds" after money is sterling, not weight
    assert no_rate_answer("Convert 10 kg to pounds", "22 pounds") is None and unit_code("Convert 10 kg to pounds") is not None


@pytest.mark.parametrize(("question", "answer"), [
    ("Convert 180 cm to feet and inches", "180 cm is 5 ft 10.9 in."),  # mol chat: "180 cm (3 feet) is equal to 60 inches."
    ("what is 1.83 m in feet and inches?", "1.83 m is 6 ft 0 in."),
    ("What's 5 foot 10 in cm?", "5 ft 10 in is 177.8 cm."),
    ("6 ft to metres", "6 ft is 1.8 metres."),
    ("How long will it take to walk 5 km?", "At a usual walking pace of about 5 km/h, 5 km takes about 1 hour."),  # mol chat: "multiply 5 km by 60 minutes"
    ("how long does it take to cycle 20 miles", "At a usual cycling pace of about 15 km/h, 20 miles takes about 2 hours 10 minutes."),
    ("How long would it take to run 3 km", "At a usual running pace of about 10 km/h, 3 km takes about 20 minutes."),
])
def test_heights_and_how_long_a_distance_takes_are_computed(question: str, answer: str) -> None:
    call = computed_call(question, TODAY)
    assert call is not None, question
    assert computed_answer(call.arguments["code"], _run(call.arguments["code"])) == answer
    assert computed_call("How long will it take to drive 50 km?", TODAY) is None  # the road decides: the model's
